import Foundation

/// What one finished run of a process printed and how it ended.
public struct ProcessResult: Sendable {
    /// How it ended (the hang guard's signal when `timedOut`).
    public let termination: Termination
    /// Whether the hang guard had to stop it.
    public let timedOut: Bool
    /// Everything it wrote on stdout.
    public let stdout: String
    /// Everything it wrote on stderr (a line about the hang guard appended when `timedOut`).
    public let stderr: String

    /// The exit status as a shell reports it: 128 + the signal's number when a signal ended it (137
    /// for SIGKILL, 143 for SIGTERM, also when the hang guard stopped it).
    public var exitCode: Int32 { termination.exitCode }

    /// Whether it exited with status 0 by itself.
    public var succeeded: Bool { !timedOut && termination.succeeded }

    /// stdout's non-empty lines.
    public var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// stdout parsed as one JSON object (what `--json` prints); throws, quoting stdout, when it is not one.
    public func json() throws -> [String: Any] {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any] else {
            throw TestSupportError.notJSONObject(stdout)
        }
        return object
    }
}
