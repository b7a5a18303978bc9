public import Foundation
import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// A process started in the background whose stdout and stderr go to files (`<name>.out` and
/// `<name>.err` in a work directory), so a test can wait for a line, signal it at a moment, then read
/// everything it wrote. Files, not pipes: a chatty child never blocks on a full pipe, and a daemon the
/// child leaves behind (`scripts/lan.sh up` starts some) cannot hold a pipe open and hang the reader.
///
/// Every wait comes twice: `async` (polls with `Task.sleep`, for async tests where in-process devices
/// keep serving) and blocking (for synchronous tests); Swift picks the one that fits the caller. Every
/// limit is a hang guard, never an asserted duration.
///
/// `@unchecked Sendable`: the `Process` is started, signalled and read from test tasks while its
/// termination handler runs on another thread; what they share is under a mutex.
public final class RunningProcess: @unchecked Sendable {
    /// What the process reads on stdin.
    public enum Input: Sendable {
        /// /dev/null: reads end at once.
        case none
        /// A pipe `send(_:)` writes lines into (open until the process ends).
        case pipe
    }

    /// The name its output files carry.
    public let name: String
    /// The file its stdout goes to.
    public let outputPath: String
    /// The file its stderr goes to.
    public let errorPath: String

    private let process = Process()
    private let input: Pipe?
    /// The directory made for this process alone when none was given, removed with it.
    private let ownDirectory: WorkDirectory?
    private let shared = Shared()

    /// What the termination handler writes, shared with it by reference.
    private final class Shared: Sendable {
        let termination = Mutex<Termination?>(nil)
    }

    /// Starts `command` (its first element a path, or a name looked up on PATH) with its outputs in
    /// `directory` (by default a fresh one, removed when this value is released); `environment` is
    /// added to this process's own.
    public init(
        _ command: [String], name: String? = nil, in directory: WorkDirectory? = nil,
        environment: [String: String] = [:], input: Input = .none
    ) throws {
        guard let executable = command.first else { throw TestSupportError.emptyCommand }
        let name = name ?? URL(fileURLWithPath: executable).lastPathComponent
        let work = try directory ?? WorkDirectory(prefix: "run")
        self.name = name
        ownDirectory = directory == nil ? work : nil
        outputPath = work.path(name + ".out")
        errorPath = work.path(name + ".err")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        defer {
            try? out.close()
            try? err.close()
        }
        process.executableURL = ProcessRunner.resolve(executable)
        process.arguments = Array(command.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        self.input = input == .pipe ? Pipe() : nil
        process.standardInput = self.input ?? FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        process.terminationHandler = { [shared] process in
            let bySignal = process.terminationReason == .uncaughtSignal
            shared.termination.withLock { $0 = Termination(status: process.terminationStatus, bySignal: bySignal) }
        }
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        ownDirectory?.remove()
    }

    /// The process ID.
    public var pid: Int32 { process.processIdentifier }
    /// How it ended once it did; nil while it runs.
    public var termination: Termination? { shared.termination.withLock { $0 } }
    /// Whether it still runs.
    public var isRunning: Bool { termination == nil }

    /// What it wrote on stdout so far.
    public var stdout: String { Self.read(outputPath) }
    /// What it wrote on stderr so far.
    public var stderr: String { Self.read(errorPath) }

    /// Its non-empty stdout lines so far (while it runs, only the finished ones).
    public var lines: [String] {
        let running = isRunning
        let text = stdout
        let lines = text.split(separator: "\n").map(String.init)
        return running && !text.isEmpty && !text.hasSuffix("\n") ? Array(lines.dropLast()) : lines
    }

    /// Its stdout lines that parse as JSON objects (`--json` event lines).
    public var jsonLines: [[String: Any]] {
        lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// Writes one line to its stdin (started with `input: .pipe`; without it, nothing is written).
    public func send(_ line: String) {
        input?.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Sends `signal` (SIGKILL: what `kill -9` does) if it still runs.
    public func signal(_ signal: Int32 = SIGKILL) { if process.isRunning { kill(pid, signal) } }

    /// Waits (at most `limit`) for the process to end; how it ended, nil if it still runs.
    @discardableResult
    public func exit(within limit: Duration) async -> Termination? {
        _ = await eventually(within: limit, every: .milliseconds(5)) { !isRunning }
        return termination
    }

    /// Blocks (at most `limit`) until the process ends; how it ended, nil if it still runs.
    @discardableResult
    public func exit(within limit: Duration) -> Termination? {
        _ = eventuallyBlocking(within: limit, every: .milliseconds(5)) { !isRunning }
        return termination
    }

    /// Waits (at most `limit`) for a finished stdout line that `matches`; the first such line (nil if
    /// none came, or the process ended without one).
    public func stdoutLine(within limit: Duration, where matches: (String) -> Bool) async -> String? {
        var found: String?
        _ = await eventually(within: limit) {
            let ended = !isRunning
            found = lines.first(where: matches)
            return found != nil || ended
        }
        return found
    }

    /// Blocks (at most `limit`) until a finished stdout line `matches`; the first such line.
    @discardableResult
    public func stdoutLine(within limit: Duration, where matches: (String) -> Bool) -> String? {
        var found: String?
        _ = eventuallyBlocking(within: limit) {
            let ended = !isRunning
            found = lines.first(where: matches)
            return found != nil || ended
        }
        return found
    }

    /// Waits (at most `limit`) for a JSON stdout line that `matches`; the first such object.
    public func jsonLine(within limit: Duration, where matches: ([String: Any]) -> Bool) async -> [String: Any]? {
        var found: [String: Any]?
        _ = await eventually(within: limit) {
            let ended = !isRunning
            found = jsonLines.first(where: matches)
            return found != nil || ended
        }
        return found
    }

    /// Blocks (at most `limit`) until a JSON stdout line `matches`; the first such object.
    @discardableResult
    public func jsonLine(within limit: Duration, where matches: ([String: Any]) -> Bool) -> [String: Any]? {
        var found: [String: Any]?
        _ = eventuallyBlocking(within: limit) {
            let ended = !isRunning
            found = jsonLines.first(where: matches)
            return found != nil || ended
        }
        return found
    }

    /// Stops the process: SIGTERM, then SIGKILL if it has not ended after `grace`; how it ended.
    @discardableResult
    public func stop(grace: Duration = .seconds(10)) async -> Termination? {
        signal(SIGTERM)
        if await exit(within: grace) == nil {
            signal(SIGKILL)
            await exit(within: .seconds(10))
        }
        return termination
    }

    /// Stops the process, blocking: SIGTERM, then SIGKILL if it has not ended after `grace`.
    @discardableResult
    public func stop(grace: Duration = .seconds(10)) -> Termination? {
        signal(SIGTERM)
        if exit(within: grace) == nil {
            signal(SIGKILL)
            exit(within: .seconds(10))
        }
        return termination
    }

    /// A file's bytes as UTF-8 (invalid sequences replaced), or "" when it cannot be read.
    private static func read(_ path: String) -> String {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
