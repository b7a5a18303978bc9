import Foundation
import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// A process started in the background whose stdout and stderr go to files (`<name>.out` and
/// `<name>.err` in a work directory), so a test can wait for a line, signal it at a moment, then read
/// everything it wrote. Files, not pipes: a chatty child never blocks on a full pipe, and a daemon the
/// child leaves behind (`scripts/lan.sh up` starts some) cannot hold a pipe open and hang the reader.
///
/// Started with `posix_spawn` and reaped with `waitpid`, not with Foundation's `Process`: that one
/// notices an exit only when every holder of a socket it hands the child has closed it, so a daemon
/// the child leaves behind would make the child look alive for as long as the daemon lives; and it
/// passes on this process's ignored signals (a child would then ignore SIGTERM). Here the child gets
/// the default disposition of every signal, an empty signal mask, its own process group, and no
/// descriptor of this process beyond 0, 1 and 2.
///
/// Every wait comes twice: `async` (polls with `Task.sleep`, for async tests where in-process devices
/// keep serving) and blocking (for synchronous tests); Swift picks the one that fits the caller. Every
/// limit is a hang guard, never an asserted duration.
///
/// `Sendable`: the state test tasks share (how the process ended) is under a mutex.
package final class RunningProcess: Sendable {
    /// What the process reads on stdin.
    package enum Input: Sendable {
        /// /dev/null: reads end at once.
        case none
        /// A pipe `send(_:)` writes lines into (open until this value is released).
        case pipe
    }

    /// The name its output files carry.
    package let name: String
    /// The file its stdout goes to.
    package let outputPath: String
    /// The file its stderr goes to.
    package let errorPath: String
    /// The process ID.
    package let pid: Int32

    /// The write end of its stdin pipe (`input: .pipe`), or -1.
    private let inputDescriptor: Int32
    /// The directory made for this process alone when none was given, removed with it.
    private let ownDirectory: WorkDirectory?
    /// How it ended, once `waitpid` reaped it.
    private let ended = Mutex<Termination?>(nil)

    /// Starts `command` (its first element a path, or a name looked up on PATH) with its outputs in
    /// `directory` (by default a fresh one, removed when this value is released); `environment` is
    /// added to this process's own; `workingDirectory` is where it runs (by default where this one does).
    /// `inheriting` lists descriptors of this process the child gets as 3, 4, ... (sharing their open
    /// file descriptions, as a child between fork and exec shares every descriptor; tests of what
    /// such a child holds use it).
    package init(
        _ command: [String], name: String? = nil, in directory: WorkDirectory? = nil,
        environment: [String: String] = [:], workingDirectory: String? = nil, input: Input = .none,
        inheriting: [Int32] = []
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

        var pipeDescriptors: [Int32] = [-1, -1]
        if input == .pipe {
            // A write to a child that has ended fails with EPIPE (send(_:) then stops) instead of
            // killing the test process with SIGPIPE. Children get the default disposition back.
            _ = Glibc.signal(SIGPIPE, SIG_IGN)
            guard pipe(&pipeDescriptors) == 0 else { throw Self.error("pipe", errno) }
            _ = fcntl(pipeDescriptors[1], F_SETFD, FD_CLOEXEC)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input == .pipe {
            posix_spawn_file_actions_adddup2(&actions, pipeDescriptors[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        let flags = O_WRONLY | O_CREAT | O_TRUNC
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, flags, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, flags, 0o644)
        if let workingDirectory {
            do {
                try Self.changeDirectory(&actions, to: workingDirectory)
            } catch {
                for descriptor in pipeDescriptors where descriptor >= 0 { close(descriptor) }
                throw error
            }
        }
        // Copies above the targets 3, 4, ... first (so no dup2 overwrites a later source); the close
        // below then leaves only the targets.
        let sources = inheriting.map { fcntl($0, F_DUPFD_CLOEXEC, Int32(3 + inheriting.count)) }
        defer { for source in sources where source >= 0 { close(source) } }
        for (index, source) in sources.enumerated() {
            guard source >= 0 else { throw Self.error("duplicating descriptor \(inheriting[index])", errno) }
            posix_spawn_file_actions_adddup2(&actions, source, Int32(3 + index))
        }
        Self.closeInheritedDescriptors(&actions, from: Int32(3 + inheriting.count))

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in Int32(1)..<32 where signal != SIGKILL && signal != SIGSTOP { sigaddset(&defaults, signal) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        let path = ProcessRunner.resolve(executable).path
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let argv = command.map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0)=\($1)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        if input == .pipe { close(pipeDescriptors[0]) }
        guard status == 0 else {
            if input == .pipe { close(pipeDescriptors[1]) }
            throw Self.error("posix_spawn \(path)", status)
        }
        self.pid = pid
        inputDescriptor = pipeDescriptors[1]
    }

    deinit {
        if termination == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }
        if inputDescriptor >= 0 { close(inputDescriptor) }
        ownDirectory?.remove()
    }

    /// How it ended once it did (reaping it then); nil while it runs.
    package var termination: Termination? { ended.withLock { Self.reap(pid, &$0) } }
    /// Whether it still runs.
    package var isRunning: Bool { termination == nil }

    /// What it wrote on stdout so far.
    package var stdout: String { Self.read(outputPath) }
    /// What it wrote on stderr so far.
    package var stderr: String { Self.read(errorPath) }

    /// Its non-empty stdout lines so far (while it runs, only the finished ones).
    package var lines: [String] {
        let running = isRunning
        let text = stdout
        let lines = text.split(separator: "\n").map(String.init)
        return running && !text.isEmpty && !text.hasSuffix("\n") ? Array(lines.dropLast()) : lines
    }

    /// Its stdout lines that parse as JSON objects (`--json` event lines).
    package var jsonLines: [[String: Any]] {
        lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// Writes one line to its stdin (started with `input: .pipe`; without it, nothing is written).
    package func send(_ line: String) {
        guard inputDescriptor >= 0 else { return }
        let bytes = Array((line + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(inputDescriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return }
            sent += count
        }
    }

    /// Sends `signal` (SIGKILL: what `kill -9` does) if it still runs (not yet reaped: its PID is
    /// still its own).
    package func signal(_ signal: Int32 = SIGKILL) {
        ended.withLock { if Self.reap(pid, &$0) == nil { kill(pid, signal) } }
    }

    /// Waits (at most `limit`) for the process to end; how it ended, nil if it still runs.
    @discardableResult
    package func exit(within limit: Duration) async -> Termination? {
        _ = await eventually(within: limit, every: .milliseconds(5)) { !isRunning }
        return termination
    }

    /// Blocks (at most `limit`) until the process ends; how it ended, nil if it still runs.
    @discardableResult
    package func exit(within limit: Duration) -> Termination? {
        _ = eventuallyBlocking(within: limit, every: .milliseconds(5)) { !isRunning }
        return termination
    }

    /// Waits (at most `limit`) for a finished stdout line that `matches`; the first such line (nil if
    /// none came, or the process ended without one).
    package func stdoutLine(within limit: Duration, where matches: (String) -> Bool) async -> String? {
        await first(within: limit, of: { lines }, where: matches)
    }

    /// Blocks (at most `limit`) until a finished stdout line `matches`; the first such line.
    @discardableResult
    package func stdoutLine(within limit: Duration, where matches: (String) -> Bool) -> String? {
        first(within: limit, of: { lines }, where: matches)
    }

    /// Waits (at most `limit`) for a JSON stdout line that `matches`; the first such object.
    package func jsonLine(within limit: Duration, where matches: ([String: Any]) -> Bool) async -> [String: Any]? {
        await first(within: limit, of: { jsonLines }, where: matches)
    }

    /// Blocks (at most `limit`) until a JSON stdout line `matches`; the first such object.
    @discardableResult
    package func jsonLine(within limit: Duration, where matches: ([String: Any]) -> Bool) -> [String: Any]? {
        first(within: limit, of: { jsonLines }, where: matches)
    }

    /// The first of `candidates()` that `matches`, polled until one does, the process ends or `limit`.
    private func first<T>(within limit: Duration, of candidates: () -> [T], where matches: (T) -> Bool) async -> T? {
        var found: T?
        _ = await eventually(within: limit) {
            let ended = !isRunning
            found = candidates().first(where: matches)
            return found != nil || ended
        }
        return found
    }

    /// ``first(within:of:where:)``, blocking.
    private func first<T>(within limit: Duration, of candidates: () -> [T], where matches: (T) -> Bool) -> T? {
        var found: T?
        _ = eventuallyBlocking(within: limit) {
            let ended = !isRunning
            found = candidates().first(where: matches)
            return found != nil || ended
        }
        return found
    }

    /// Stops the process: SIGTERM, then SIGKILL if it has not ended after `grace`; how it ended.
    @discardableResult
    package func stop(grace: Duration = .seconds(10)) async -> Termination? {
        signal(SIGTERM)
        if await exit(within: grace) == nil {
            signal(SIGKILL)
            await exit(within: .seconds(10))
        }
        return termination
    }

    /// Stops the process, blocking: SIGTERM, then SIGKILL if it has not ended after `grace`.
    @discardableResult
    package func stop(grace: Duration = .seconds(10)) -> Termination? {
        signal(SIGTERM)
        if exit(within: grace) == nil {
            signal(SIGKILL)
            exit(within: .seconds(10))
        }
        return termination
    }

    /// Reaps `pid` if it ended (`waitpid` without blocking) and records how in `ended`; `ended`.
    /// Should something else have reaped it (ECHILD), it counts as ended with status -1.
    private static func reap(_ pid: Int32, _ ended: inout Termination?) -> Termination? {
        guard ended == nil else { return ended }
        var status: Int32 = 0
        var reaped = waitpid(pid, &status, WNOHANG)
        while reaped == -1 && errno == EINTR { reaped = waitpid(pid, &status, WNOHANG) }
        if reaped == pid {
            let signal = status & 0x7f
            ended =
                signal == 0
                ? Termination(status: (status >> 8) & 0xff, bySignal: false)
                : Termination(status: signal, bySignal: true)
        } else if reaped == -1 && errno == ECHILD {
            ended = Termination(status: -1, bySignal: false)
        }
        return ended
    }

    /// Adds to `actions` a change of directory (glibc's `posix_spawn_file_actions_addchdir_np`, 2.29,
    /// looked up at run time: the Glibc module does not declare it).
    private static func changeDirectory(_ actions: inout posix_spawn_file_actions_t, to path: String) throws {
        typealias ChangeDirectory =
            @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np") else {
            throw TestSupportError.spawnFailed("this C library cannot start a process in another directory")
        }
        let status = unsafeBitCast(symbol, to: ChangeDirectory.self)(&actions, path)
        guard status == 0 else { throw error("chdir \(path)", status) }
    }

    /// Adds to `actions` closing every descriptor from `lowest` up, as the file actions' last one: glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` (2.34, looked up at run time: the Glibc module does
    /// not declare it), else a close of each descriptor `/proc/self/fd` lists.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t, from lowest: Int32) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
        if let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, lowest)
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap({ Int32($0) }) where descriptor >= lowest {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }

    /// A system call's failure as an error.
    private static func error(_ call: String, _ code: Int32) -> TestSupportError {
        .spawnFailed("\(call): \(String(cString: strerror(code)))")
    }

    /// A file's bytes as UTF-8 (invalid sequences replaced), or "" when it cannot be read.
    private static func read(_ path: String) -> String {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
