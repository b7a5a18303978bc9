package import Foundation

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Runs a process to its end and captures what it printed: the built `matter-emu` as a user would run
/// it, or any other command. Built on ``RunningProcess`` (outputs in files, stdin /dev/null).
///
/// `environment` is added to this process's own (a variable given there overrides the inherited one).
/// `limit` is a hang guard: after it the process gets SIGTERM, then SIGKILL a second later, and the
/// result says `timedOut` (exit code 143 or 137). Each run comes twice: blocking, and `async` (for async
/// tests, where in-process devices keep serving); Swift picks the one that fits the caller.
package enum ProcessRunner {
    /// The built `matter-emu`: `.build/<triple>/debug/matter-emu`, beside the test bundle.
    package static var matterEmu: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("matter-emu")
    }

    /// `name` itself when it is a path, else the first executable `name` on PATH (`Process` needs a path).
    package static func resolve(_ name: String) -> URL {
        if name.contains("/") { return URL(fileURLWithPath: name) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/sbin:/usr/bin:/sbin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        return URL(fileURLWithPath: name)
    }

    /// Runs `command` (its first element a path or a name on PATH) to its end, blocking
    /// (`workingDirectory`: where it runs, by default where this process does).
    package static func run(
        _ command: [String], environment: [String: String] = [:], workingDirectory: String? = nil,
        limit: Duration = .seconds(600)
    ) throws -> ProcessResult {
        let process = try RunningProcess(command, environment: environment, workingDirectory: workingDirectory)
        let ended = process.exit(within: limit) != nil
        if !ended {
            process.signal(SIGTERM)
            if process.exit(within: .seconds(1)) == nil { process.signal(SIGKILL) }
            process.exit(within: .seconds(10))
        }
        return try result(of: process, timedOut: ended ? nil : limit)
    }

    /// Runs `command` to its end without blocking the caller's thread.
    package static func run(
        _ command: [String], environment: [String: String] = [:], workingDirectory: String? = nil,
        limit: Duration = .seconds(600)
    ) async throws -> ProcessResult {
        let process = try RunningProcess(command, environment: environment, workingDirectory: workingDirectory)
        let ended = await process.exit(within: limit) != nil
        if !ended {
            process.signal(SIGTERM)
            if await process.exit(within: .seconds(1)) == nil { process.signal(SIGKILL) }
            await process.exit(within: .seconds(10))
        }
        return try result(of: process, timedOut: ended ? nil : limit)
    }

    /// Runs `matter-emu <arguments>` to its end, blocking.
    package static func runMatterEmu(
        _ arguments: [String], environment: [String: String] = [:], limit: Duration = .seconds(600)
    ) throws -> ProcessResult {
        try run([matterEmu.path] + arguments, environment: environment, limit: limit)
    }

    /// Runs `matter-emu <arguments>` to its end without blocking the caller's thread.
    package static func runMatterEmu(
        _ arguments: [String], environment: [String: String] = [:], limit: Duration = .seconds(600)
    ) async throws -> ProcessResult {
        try await run([matterEmu.path] + arguments, environment: environment, limit: limit)
    }

    /// What `process` printed and how it ended (`timedOut`: the hang guard it overran).
    private static func result(of process: RunningProcess, timedOut limit: Duration?) throws -> ProcessResult {
        guard let termination = process.termination else {
            throw TestSupportError.timedOut("\(process.name) (pid \(process.pid)) survived SIGKILL")
        }
        let note = limit.map { "\n(stopped by the hang guard after \($0))" } ?? ""
        return ProcessResult(
            termination: termination, timedOut: limit != nil, stdout: process.stdout, stderr: process.stderr + note)
    }
}
