import Foundation
import Glibc

/// What a finished process left: its exit status and both outputs.
struct ProcessResult: Sendable {
    let exitCode: Int32
    let stdout: String
    let stderr: String

    /// stdout parsed as one JSON object (`--json` output), or nil.
    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
    }

    /// stdout's non-empty lines.
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// Runs a process to completion. Outputs go to temporary files, not pipes, so a chatty child can
/// never block on a full pipe; `timeout` is a hang guard only (the child is killed, the result says 137).
enum ProcessRunner {
    /// `name` itself when it is a path, else the first executable `name` on PATH (Process needs a path).
    static func resolve(_ name: String) -> String {
        if name.contains("/") { return name }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/sbin:/usr/bin:/sbin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return name
    }

    static func run(_ command: [String], timeout: Double = 60, environment: [String: String]? = nil) throws
        -> ProcessResult
    {
        guard let executable = command.first else { throw LANError.unexpected("empty command") }
        let directory = try WorkDirectory(prefix: "run")
        defer { directory.remove() }
        let outPath = directory.path("out")
        let errPath = directory.path("err")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: resolve(executable))
        process.arguments = Array(command.dropFirst())
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        try? out.close()
        try? err.close()
        let deadline = Date().addingTimeInterval(timeout)
        var killed = false
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                Thread.sleep(forTimeInterval: 1)
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                killed = true
                break
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        process.waitUntilExit()
        let stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return ProcessResult(
            exitCode: killed ? 137 : process.terminationStatus, stdout: stdout,
            stderr: stderr + (killed ? "\n(killed after the \(timeout) s hang guard)" : ""))
    }
}

/// A background process whose stdout and stderr go to files in a work directory and whose stdin is
/// a pipe the test writes commands into.
// @unchecked Sendable: shared by serialized tests on different tasks.
final class RunningProcess: @unchecked Sendable {
    let name: String
    let outputPath: String
    let errorPath: String
    private let process = Process()
    private let input = Pipe()

    init(_ command: [String], name: String, in work: WorkDirectory) throws {
        guard let executable = command.first else { throw LANError.unexpected("empty command") }
        self.name = name
        outputPath = work.path(name + ".out")
        errorPath = work.path(name + ".err")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: ProcessRunner.resolve(executable))
        process.arguments = Array(command.dropFirst())
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Everything it printed on stdout so far.
    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var lines: [String] { output.split(separator: "\n").map(String.init) }
    var errorOutput: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// stdout lines that parse as JSON objects (`--json` event lines).
    var jsonLines: [[String: Any]] {
        lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// Writes one command line to its stdin.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits (hang guard `timeout`) until a stdout line satisfies `condition`; returns that line.
    @discardableResult
    func waitForLine(timeout: Double, _ condition: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let line = lines.first(where: condition) { return line }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return nil
    }

    /// Waits until a JSON stdout line satisfies `condition`.
    @discardableResult
    func waitForJSON(timeout: Double, _ condition: ([String: Any]) -> Bool) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let object = jsonLines.first(where: condition) { return object }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return nil
    }

    /// Sends SIGTERM and waits for the exit (SIGKILL after `timeout`); returns the exit status.
    @discardableResult
    func stop(timeout: Double = 10) -> Int32 {
        if process.isRunning { process.terminate() }
        return waitForExit(timeout: timeout)
    }

    /// Sends SIGKILL and waits.
    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Closes stdin (the probe's "quit" by end of input) and waits for the exit.
    @discardableResult
    func waitForExit(timeout: Double) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// A temporary directory for one suite's state directories and logs, removed by `remove()`.
struct WorkDirectory: Sendable {
    let root: String

    init(prefix: String) throws {
        root = NSTemporaryDirectory() + "matter-emu-\(prefix)-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { root + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}

/// Retries `condition` about once a second until it holds or `seconds` pass (for caches that expire
/// after goodbye packets); a hang guard, never an asserted duration.
func eventually(_ seconds: Double, _ condition: () throws -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
        if (try? condition()) == true { return true }
        if Date() >= deadline { return false }
        Thread.sleep(forTimeInterval: 1)
    }
}
