import Foundation
import MatterTestSupport
import Testing

/// A Python referee driver of scripts/interop (chip_driver.py, chip_events.py, dm_check.py, ha_driver.py):
/// each prints one `[PASS] NAME DETAIL` or `[FAIL] NAME DETAIL` line per check (scripts/interop/referee.py)
/// and then a closing `N passed, N failed` line (its exit status is not a verdict: the SDK's Python controller
/// can crash in the interpreter's teardown after that line, SIGSEGV or SIGILL).
enum Referee {
    /// The Python of a referee's venv: `$VARIABLE/bin/python`, or `DEFAULT/bin/python` (scripts/setup.sh's venvs).
    static func python(_ variable: String, default directory: String) -> String {
        (ProcessInfo.processInfo.environment[variable] ?? directory) + "/bin/python"
    }

    /// The connectedhomeip SDK's Python controller (`CHIP_VENV`).
    static var chipPython: String { python("CHIP_VENV", default: "/opt/matter-emu/chipvenv") }

    /// A driver script: `scripts/interop/NAME` in the package.
    static func script(_ name: String) -> String { BuiltBinaries.packageRoot + "/scripts/interop/" + name }

    /// The PAA trust store of the test PKI.
    static var paaTrustStore: String { BuiltBinaries.packageRoot + "/fixtures/pki/paa-trust-store" }

    /// Runs `command` (a driver) to completion and records its checks (see `RefereeReport.record`).
    @discardableResult
    static func run(
        _ tag: String, _ command: [String], timeout: Double, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> RefereeReport {
        let result = try ProcessRunner.run(command, limit: .seconds(timeout))
        let report = RefereeReport(result)
        report.record(tag, sourceLocation: sourceLocation)
        return report
    }

    /// The last `count` lines of `text` (a log excerpt for a failure message).
    static func tail(_ text: String, _ count: Int = 20) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).suffix(count).joined(separator: "\n")
    }
}

/// The checks one driver run printed.
struct RefereeReport {
    let result: ProcessResult
    /// The `[PASS] ...` lines.
    let passes: [String]
    /// The `[FAIL] ...` lines.
    let failures: [String]
    /// The `[PASS]`, `[FAIL]` and `[INFO]` (not counted) lines, in order.
    let printed: [String]
    /// Whether it printed its closing `N passed, N failed` line (it ran to the end).
    let finished: Bool

    init(_ result: ProcessResult) {
        self.result = result
        let lines = result.stdout.split(separator: "\n").map(String.init)
        passes = lines.filter { $0.hasPrefix("[PASS]") }
        failures = lines.filter { $0.hasPrefix("[FAIL]") }
        printed = lines.filter { $0.hasPrefix("[PASS]") || $0.hasPrefix("[FAIL]") || $0.hasPrefix("[INFO]") }
        finished = lines.contains { line in
            let words = line.split(separator: " ")
            return words.count == 4 && Int(words[0]) != nil && words[1] == "passed," && Int(words[2]) != nil
                && words[3] == "failed"
        }
    }

    /// Whether every check passed, there was at least one, and the driver ran to its closing line.
    var succeeded: Bool { failures.isEmpty && !passes.isEmpty && finished }

    /// Prints every check and information line as `  [TAG] [PASS] ...`, records one issue per `[FAIL]` line (so each failed
    /// check shows by name), and one when the driver reported no check or stopped before its closing
    /// line (a crash, the hang guard): then with its exit status and the end of its stderr.
    func record(_ tag: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for line in printed { print("  [\(tag)] \(line)") }
        for line in failures { Issue.record("[\(tag)] \(line)", sourceLocation: sourceLocation) }
        if passes.isEmpty && failures.isEmpty {
            Issue.record(
                "[\(tag)] the driver reported no check (exit \(result.exitCode)); stderr:\n\(Referee.tail(result.stderr))",
                sourceLocation: sourceLocation)
        } else if !finished {
            let stderr = Referee.tail(result.stderr)
            Issue.record(
                "[\(tag)] the driver stopped before its closing line (exit \(result.exitCode)); stderr:\n\(stderr)",
                sourceLocation: sourceLocation)
        }
    }
}
