import Foundation
import MatterTestSupport
import Synchronization
import Testing

/// Commissioning and commands through packet loss, on loopback.
///
/// Each run starts a fresh `matter-emu device` whose transport drops each datagram it sends or
/// receives (both directions: `--drop P`, seeded per run) with probability P, commissions it with
/// `matter-emu pairing already-discovered`, then runs 5 commands (On, Off, On, Off, On), each checked
/// by reading OnOff back, every one a separate `matter-emu` process (a CASE session each). P = 0
/// (the baseline), 0.1 and 0.3; `MATTER_EMU_LOSS_RUNS` (default 50) runs per rate, interleaved so
/// every rate sees the same load, at most 8 runs at once (lossy runs mostly wait on MRP
/// timers). The device advertises SII = SAI = 100 ms; the commissioner keeps the spec defaults; MRP's
/// constants are the spec's. Criterion: every commissioning and every command succeeds at every rate.
/// Latencies are printed (a table for docs/RELIABILITY.md), never asserted.
@Suite("Loss suite: commissioning and commands through 10 % and 30 % packet loss (matter-emu on loopback)")
struct LossSuiteTests {
    static let runs = Int(ProcessInfo.processInfo.environment["MATTER_EMU_LOSS_RUNS"] ?? "") ?? 50
    static let commands = 5
    /// Lossy runs mostly wait on MRP timers, but each command is a process start: 8 at a time keep
    /// the rest of `swift test` (which runs beside this suite) off a saturated machine.
    static let limit = ConcurrencyLimit(8)

    /// What one run did: its commissioning (and how long its stages took) and each command.
    struct RunResult: Sendable {
        var index: Int
        var commissioned = false
        var commissioningMilliseconds: Int?
        var restartsFromPASE = 0
        var commands: [(ok: Bool, milliseconds: Int)] = []
        var failure: String?
    }

    static let rates = [0.0, 0.1, 0.3]

    /// The rates' runs are interleaved (run 1 at every rate, then run 2, ...), so that every rate sees
    /// the same load, the machine's and our own: the latencies compare like with like. Two checks per
    /// rate, as the bash loss suite made: every commissioning, and every command with its read-back.
    @Test("every commissioning and every command succeeds at 0 %, 10 % and 30 % packet loss")
    func lossyRuns() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let results = await withTaskGroup(of: (Double, RunResult).self) { group in
            for index in 1...Self.runs {
                for drop in Self.rates {
                    group.addTask { await Self.limit.run { (drop, await Self.run(drop: drop, index: index)) } }
                }
            }
            var all: [Double: [RunResult]] = [:]
            for await (drop, result) in group { all[drop, default: []].append(result) }
            return all
        }
        let seconds = (clock.now - start) / .seconds(1)
        for drop in Self.rates {
            let runs = results[drop] ?? []
            let commissioned = runs.filter(\.commissioned).count
            let commandsOK = runs.reduce(0) { $0 + $1.commands.filter(\.ok).count }
            let failures = runs.compactMap(\.failure)
            #expect(
                commissioned == Self.runs,
                "drop \(drop): every commissioning succeeded (\(commissioned)/\(Self.runs)): \(failures.prefix(3))")
            let commandsTotal = Self.runs * Self.commands
            #expect(
                commandsOK == commandsTotal,
                "drop \(drop): every command succeeded and read back (\(commandsOK)/\(commandsTotal)): \(failures.prefix(3))"
            )
        }
        print(Self.table(results, seconds: seconds))
    }

    /// One device, one commissioning, then the commands with read-back; a failure is described, not thrown.
    static func run(drop: Double, index: Int) async -> RunResult {
        var result = RunResult(index: index)
        do {
            let directory = try TemporaryDirectory(prefix: "matter-emu-loss")
            let state = ["--state-dir", directory.file("ctl")]
            let device = try await EmuDevice.start([
                "--no-advertise", "--secured-device-port", "0", "--KVS", directory.file("device.sqlite"),
                "--passcode", "20202021", "--drop", "\(drop)", "--fault-seed", "\(index + 1)",
                "--mrp-idle-interval", "100", "--mrp-active-interval", "100",
            ])
            defer { device.process.signal(SIGTERM) }
            let pairing = try await ProcessRunner.runMatterEmu(
                ["pairing", "already-discovered", "1", "20202021", "::1", "\(device.port)", "--json"] + state,
                limit: .seconds(300))
            result.restartsFromPASE = pairing.stderr.components(separatedBy: "again from PASE").count - 1
            guard pairing.succeeded else {
                result.failure = "drop \(drop) run \(index): commissioning: \(pairing.stderr.suffix(400))"
                await device.stop()
                return result
            }
            result.commissioned = true
            // The commissioning's latency: its stages' own total (discovery to store), without process start-up.
            let stages = (try? pairing.json()["stages"] as? [[String: Any]]) ?? []
            result.commissioningMilliseconds = stages.reduce(0) {
                $0 + (($1["durationMs"] as? NSNumber)?.intValue ?? 0)
            }
            for command in 1...commands {
                let on = command % 2 == 1
                let clock = ContinuousClock()
                let start = clock.now
                let set = try await ProcessRunner.runMatterEmu(
                    ["onoff", on ? "on" : "off", "1"] + state, limit: .seconds(120))
                let took = clock.now - start
                let read = try await ProcessRunner.runMatterEmu(
                    ["onoff", "read", "on-off", "1", "--json"] + state, limit: .seconds(120))
                let value = read.succeeded ? (try? read.json()["value"]) as? Bool : nil
                let ok = set.succeeded && value == on
                result.commands.append((ok, Int(took / .milliseconds(1))))
                if !ok, result.failure == nil {
                    result.failure = "drop \(drop) run \(index): command \(command): \(set.stderr) \(read.stderr)"
                }
            }
            await device.stop()
        } catch {
            result.failure = "drop \(drop) run \(index): \(error)"
        }
        return result
    }

    /// The table for docs/RELIABILITY.md: per rate, success counts and p50/p95 latencies, and what the
    /// loss adds to them (the difference to the baseline's percentile). Commissioning: its stages' own
    /// total; one command: the wall time of its `matter-emu` process, start-up and CASE included.
    static func table(_ results: [Double: [RunResult]], seconds: Double) -> String {
        func figures(_ runs: [RunResult]) -> (c50: Int?, c95: Int?, i50: Int?, i95: Int?) {
            let commissioning = runs.compactMap(\.commissioningMilliseconds)
            let commands = runs.flatMap { $0.commands.filter(\.ok).map(\.milliseconds) }
            return (
                percentile(50, commissioning), percentile(95, commissioning), percentile(50, commands),
                percentile(95, commands)
            )
        }
        func text(_ value: Int?) -> String { value.map(String.init) ?? "-" }
        func added(_ value: Int?, _ base: Int?) -> String {
            guard let value, let base else { return "-" }
            return "+\(value - base)"
        }
        let base = figures(results[rates[0]] ?? [])
        var lines = [
            "loss: \(runs) runs per rate, rates interleaved, \(limit.limit) runs at a time, \(Int(seconds)) s in all, "
                + "on \(ProcessInfo.processInfo.activeProcessorCount) cores",
            "",
            "| drop (each direction) | commissioning ok | p50 ms | p95 ms | added p50/p95 ms | commands ok | p50 ms "
                + "| p95 ms | added p50/p95 ms |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for drop in rates {
            let runs = results[drop] ?? []
            let f = figures(runs)
            let restarts = runs.reduce(0) { $0 + $1.restartsFromPASE }
            let commandsOK = runs.reduce(0) { $0 + $1.commands.filter(\.ok).count }
            lines.append(
                "| \(Int(drop * 100)) % | \(runs.filter(\.commissioned).count)/\(runs.count) | \(text(f.c50)) "
                    + "| \(text(f.c95)) | \(added(f.c50, base.c50)) / \(added(f.c95, base.c95)) "
                    + "| \(commandsOK)/\(runs.count * commands) | \(text(f.i50)) | \(text(f.i95)) "
                    + "| \(added(f.i50, base.i50)) / \(added(f.i95, base.i95)) | (\(restarts) restart(s) from PASE)")
        }
        return lines.joined(separator: "\n")
    }

    /// The `p`-th percentile (nearest rank) of `values`, nil when there are none.
    static func percentile(_ p: Int, _ values: [Int]) -> Int? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted[max(1, (p * sorted.count + 99) / 100) - 1]
    }
}
