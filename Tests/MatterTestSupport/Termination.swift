#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// How a process ended.
package struct Termination: Sendable, Equatable, CustomStringConvertible {
    /// The exit status, or the signal's number when `bySignal`.
    package let status: Int32
    /// Whether a signal ended it.
    package let bySignal: Bool

    /// The exit status as a shell reports it: the status itself, or 128 + the signal's number when a
    /// signal ended it (137 for SIGKILL, 143 for SIGTERM), so it never collides with a real exit status
    /// below 128 (`matter-emu` exits with 0 to 9).
    package var exitCode: Int32 { bySignal ? 128 + status : status }
    /// Whether SIGKILL ended it (a test hook's, a hang guard's or an outside `kill -9`).
    package var isSIGKILL: Bool { bySignal && status == SIGKILL }
    /// Whether it exited with status 0.
    package var succeeded: Bool { !bySignal && status == 0 }

    package var description: String { bySignal ? "signal \(status)" : "exit \(status)" }
}
