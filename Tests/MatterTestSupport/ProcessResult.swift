import Foundation

/// What one finished run of a process printed and how it ended.
package struct ProcessResult: Sendable {
    /// How it ended (the hang guard's signal when `timedOut`).
    package let termination: Termination
    /// Whether the hang guard had to stop it.
    package let timedOut: Bool
    /// Everything it wrote on stdout.
    package let stdout: String
    /// Everything it wrote on stderr (a line about the hang guard appended when `timedOut`).
    package let stderr: String

    /// The exit status as a shell reports it: 128 + the signal's number when a signal ended it (137
    /// for SIGKILL, 143 for SIGTERM, also when the hang guard stopped it).
    package var exitCode: Int32 { termination.exitCode }

    /// Whether it exited with status 0 by itself.
    package var succeeded: Bool { !timedOut && termination.succeeded }

    /// stdout's non-empty lines.
    package var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// stdout parsed as one JSON object (what `--json` prints); throws, quoting stdout, when it is not one.
    package func json() throws -> [String: Any] {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any] else {
            throw TestSupportError.notJSONObject(stdout)
        }
        return object
    }
}
