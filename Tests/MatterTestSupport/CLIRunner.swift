public import Foundation

/// What one run of the built `matter-emu` printed and how it ended.
public struct CLIResult: Sendable {
    /// The exit status (the signal's number when a signal ended it, as in `termination`).
    public let exitCode: Int32
    /// How the process ended; nil if the hang guard had to kill it.
    public let termination: Termination?
    /// Everything it wrote on stdout.
    public let stdout: String
    /// Everything it wrote on stderr.
    public let stderr: String

    /// Whether it exited with status 0.
    public var succeeded: Bool { termination?.succeeded ?? false }

    /// stdout parsed as one JSON object (what `--json` prints).
    public func json() throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] else {
            throw TestSupportError.notJSONObject(stdout)
        }
        return object
    }
}

/// Runs the built `matter-emu` binary as a user would and captures what it prints.
public enum CLIRunner {
    /// `.build/<triple>/debug/matter-emu`, beside the test bundle.
    public static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("matter-emu")
    }

    /// Runs `matter-emu <arguments>` to its end, synchronously (stdin is /dev/null; a hang guard of
    /// ten minutes).
    public static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CLIResult {
        let child = try ChildProcess(binary, arguments, environment: environment)
        let ended = eventuallyBlocking(within: .seconds(600), every: .milliseconds(5)) { child.termination != nil }
        if !ended {
            child.signal()
            _ = eventuallyBlocking(within: .seconds(10)) { child.termination != nil }
        }
        return result(of: child, ended: ended)
    }

    /// Runs `matter-emu <arguments>` (or another `executable`) to its end without blocking the caller's
    /// thread (in-process devices keep serving); `limit` is a hang guard: the process is killed after it.
    public static func run(
        executable: URL = binary, _ arguments: [String], environment: [String: String] = [:], limit: Duration
    ) async throws -> CLIResult {
        let child = try ChildProcess(executable, arguments, environment: environment)
        let ended = await child.exit(within: limit) != nil
        if !ended {
            child.signal()
            _ = await child.exit(within: .seconds(10))
        }
        return result(of: child, ended: ended)
    }

    /// What `child` printed and how it ended (nil termination: the hang guard killed it).
    private static func result(of child: ChildProcess, ended: Bool) -> CLIResult {
        let termination = ended ? child.termination : nil
        return CLIResult(
            exitCode: termination?.status ?? -1, termination: termination, stdout: child.stdout, stderr: child.stderr)
    }

    /// Parses stdout as a JSON object.
    public static func json(_ result: CLIResult) throws -> [String: Any] { try result.json() }
}
