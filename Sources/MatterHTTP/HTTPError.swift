/// Why the HTTP server could not start (the address, or the library's refusal).
public struct HTTPError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
