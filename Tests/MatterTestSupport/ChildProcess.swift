public import Foundation
import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// How a child process ended.
public struct Termination: Sendable, Equatable, CustomStringConvertible {
    /// The exit status, or the signal's number when `bySignal`.
    public let status: Int32
    /// Whether a signal ended it.
    public let bySignal: Bool

    /// Whether SIGKILL ended it (a test hook's or an outside `kill -9`).
    public var isSIGKILL: Bool { bySignal && status == SIGKILL }
    /// Whether it exited with status 0.
    public var succeeded: Bool { !bySignal && status == 0 }

    public var description: String { bySignal ? "signal \(status)" : "exit \(status)" }
}

/// A child process whose stdout and stderr are collected as they arrive (so a test can wait for a
/// line, kill it at a moment, then read everything it wrote).
///
/// `@unchecked Sendable`: the `Process` is started, signalled and read from test tasks while its
/// termination handler and the pipe readers run on other threads; what they share is under `state`.
public final class ChildProcess: @unchecked Sendable {
    private let process = Process()
    private let shared = Shared()

    /// What the termination handler and the pipe readers write, shared with them by reference.
    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private struct State {
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var openPipes = 2
        var termination: Termination?
    }

    /// Starts `executable` with `arguments`; `environment` is added to this process's own.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.terminationHandler = { [shared] process in
            let bySignal = process.terminationReason == .uncaughtSignal
            shared.state.withLock {
                $0.termination = Termination(status: process.terminationStatus, bySignal: bySignal)
            }
        }
        try process.run()
        for (handle, isStdout) in [(out.fileHandleForReading, true), (err.fileHandleForReading, false)] {
            Thread.detachNewThread { [shared] in
                // read(2), not FileHandle.availableData: that traps on EINTR, which a signal to this
                // process (a child's SIGCHLD) causes on a loaded machine.
                let descriptor = handle.fileDescriptor
                var buffer = [UInt8](repeating: 0, count: 16_384)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0, errno == EINTR { continue }
                    if count <= 0 { break }
                    let bytes = buffer[0..<count]
                    shared.state.withLock { if isStdout { $0.stdout += bytes } else { $0.stderr += bytes } }
                }
                try? handle.close()
                shared.state.withLock { $0.openPipes -= 1 }
            }
        }
    }

    /// The process ID.
    public var pid: Int32 { process.processIdentifier }
    /// What it wrote on stdout so far.
    public var stdout: String { shared.state.withLock { String(decoding: $0.stdout, as: UTF8.self) } }
    /// What it wrote on stderr so far.
    public var stderr: String { shared.state.withLock { String(decoding: $0.stderr, as: UTF8.self) } }
    /// How it ended once it did and both pipes are drained; nil while it runs.
    public var termination: Termination? { shared.state.withLock { $0.openPipes == 0 ? $0.termination : nil } }

    /// Sends `signal` (SIGKILL: what `kill -9` does).
    public func signal(_ signal: Int32 = SIGKILL) { if process.isRunning { kill(pid, signal) } }

    /// Waits (at most `limit`, a hang guard) for the process to end; how it ended, nil if it still runs.
    public func exit(within limit: Duration) async -> Termination? {
        _ = await eventually(within: limit) { termination != nil }
        return termination
    }

    /// Waits (at most `limit`) for a full line on stdout that `matches`; the first such line.
    public func stdoutLine(within limit: Duration, where matches: (String) -> Bool) async -> String? {
        var found: String?
        _ = await eventually(within: limit) {
            found = stdout.split(separator: "\n", omittingEmptySubsequences: true).dropLast(
                stdout.hasSuffix("\n") ? 0 : 1
            ).map(String.init).first(where: matches)
            return found != nil || termination != nil
        }
        return found
    }

    /// Stops the process: SIGTERM, then SIGKILL if it has not ended after `grace`.
    public func stop(grace: Duration = .seconds(5)) async {
        signal(SIGTERM)
        if await exit(within: grace) == nil {
            signal(SIGKILL)
            _ = await exit(within: .seconds(10))
        }
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}
