/// Why the HTTP server could not start (the address, or the library's refusal).
package struct HTTPError: Error, CustomStringConvertible, Sendable {
    package let message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
