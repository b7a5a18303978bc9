import Foundation
import Glibc
import MatterTestSupport
import Testing

/// The test support's process runner, which every suite that runs `matter-emu` (or any command) uses:
/// its exit code convention, its environment, its hang guard and its output files.
@Suite("ProcessRunner and RunningProcess")
struct ProcessRunnerTests {
    @Test("an exit status is passed through; a signal is reported as 128 + its number, as a shell does")
    func exitCodes() throws {
        let nine = try ProcessRunner.run(["/bin/sh", "-c", "exit 9"])
        #expect(nine.exitCode == 9 && !nine.termination.bySignal && !nine.succeeded)
        let killed = try ProcessRunner.run(["/bin/sh", "-c", "kill -9 $$"])
        #expect(killed.exitCode == 137 && killed.termination.isSIGKILL, "\(killed.termination)")
        #expect(!killed.succeeded && !killed.timedOut)
        #expect(try ProcessRunner.run(["true"]).succeeded)
    }

    @Test("a line sent to a child that has ended is dropped; the test process is not killed by SIGPIPE")
    func sendAfterExit() throws {
        let child = try RunningProcess(["true"], input: .pipe)
        #expect(child.exit(within: .seconds(30))?.bySignal == false)
        for _ in 0..<3 { child.send(String(repeating: "x", count: 100_000)) }
        #expect(child.termination?.bySignal == false)
    }

    @Test("environment: is added to the inherited environment")
    func environmentIsAdded() async throws {
        let result = try await ProcessRunner.run(
            ["/bin/sh", "-c", #"printf '%s|%s' "$PATH" "$MATTER_EMU_RUNNER_TEST""#],
            environment: ["MATTER_EMU_RUNNER_TEST": "added"])
        #expect(result.stdout == "\(ProcessInfo.processInfo.environment["PATH"] ?? "")|added")
    }

    @Test("workingDirectory: is where the process runs")
    func workingDirectory() throws {
        let directory = try TemporaryDirectory(prefix: "matter-emu-runner")
        let result = try ProcessRunner.run(["/bin/sh", "-c", "pwd -P"], workingDirectory: directory.path)
        let expected = URL(fileURLWithPath: directory.path).resolvingSymlinksInPath().path
        #expect(result.stdout == expected + "\n", "\(result.stderr)")
    }

    @Test("the hang guard stops the process (SIGTERM: 143) and the result says so")
    func hangGuard() throws {
        let result = try ProcessRunner.run(["sleep", "60"], limit: .milliseconds(300))
        #expect(result.timedOut && result.exitCode == 143 && !result.succeeded, "\(result.termination)")
        #expect(result.stderr.contains("hang guard"))
    }

    @Test("a daemon the process leaves behind, holding its stdout, does not hang the run (files, not pipes)")
    func leftoverDaemonDoesNotHang() throws {
        let result = try ProcessRunner.run(["/bin/sh", "-c", "sleep 60 & echo $!"], limit: .seconds(30))
        if let daemon = Int32(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) { kill(daemon, SIGKILL) }
        #expect(result.succeeded && !result.timedOut, "\(result.termination) \(result.stderr)")
    }

    @Test("json() throws, quoting stdout, when stdout is not one JSON object")
    func jsonThrows() throws {
        let result = try ProcessRunner.run(["/bin/echo", "not json"])
        #expect(throws: TestSupportError.self) { try result.json() }
        #expect(try ProcessRunner.run(["/bin/echo", #"{"a":1}"#]).json()["a"] as? Int == 1)
    }

    @Test("a background process reads lines sent to its stdin pipe and its output is read from its file")
    func backgroundProcess() async throws {
        let cat = try RunningProcess(["cat"], input: .pipe)
        cat.send("hello")
        #expect(await cat.stdoutLine(within: .seconds(30)) { $0 == "hello" } == "hello")
        let ended = await cat.stop()
        #expect(ended?.bySignal == true && ended?.exitCode == 128 + SIGTERM, "\(String(describing: ended))")
        #expect(FileManager.default.fileExists(atPath: cat.outputPath))
    }
}
