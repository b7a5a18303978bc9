import Foundation
import MatterController
import MatterCore
import MatterDevice
import MatterDiscovery
import MatterStorage
import Synchronization

/// Hands out indices 0, 1, 2... to concurrent workers.
final class IndexDispenser: Sendable {
    private let next: Mutex<Int>
    private let end: Int
    init(from start: Int, count: Int) {
        next = Mutex(start)
        end = start + count
    }

    func take() -> Int? {
        next.withLock { value in
            guard value < end else { return nil }
            defer { value += 1 }
            return value
        }
    }
}

/// One round of commissionings from one controller with `concurrency` in flight.
struct CommissioningRound {
    var latency = Samples()
    var wall: Double = 0
    var failures: [String] = []

    var rate: Double { wall > 0 ? Double(latency.count) / (wall / 1000) : 0 }
}

/// Commissions fleet devices `first..<first+count` by direct address, `concurrency` at a time; device
/// i becomes node i+1.
func commissionRound(_ controller: Controller, fleet: Fleet, first: Int, count: Int, concurrency: Int) async
    -> CommissioningRound
{
    let clock = ContinuousClock()
    let dispenser = IndexDispenser(from: first, count: count)
    let start = clock.now
    let results = await withTaskGroup(of: [(Double?, String?)].self) { group in
        for _ in 0..<concurrency {
            group.addTask {
                var mine: [(Double?, String?)] = []
                while let index = dispenser.take() {
                    let device = fleet.devices[index]
                    let begin = clock.now
                    do {
                        _ = try await controller.commission(
                            CommissioningRequest(
                                locator: .address(try DirectAddress(parsing: "[::1]:\(device.port)")),
                                passcode: device.configuration.passcode, nodeID: NodeID(UInt64(index + 1))))
                        mine.append((milliseconds(clock.now - begin), nil))
                    } catch {
                        mine.append((nil, "device \(index): \(error)"))
                    }
                }
                return mine
            }
        }
        var all: [(Double?, String?)] = []
        for await part in group { all += part }
        return all
    }
    var round = CommissioningRound()
    round.wall = milliseconds(clock.now - start)
    for (latency, failure) in results {
        if let latency { round.latency.add(latency) }
        if let failure { round.failures.append(failure) }
    }
    return round
}

/// Commissioning throughput from one controller, over a fleet of `--fleet` (1000) on-off lights in
/// this process on loopback, by direct address: `--sequential` (20) one at a time, then `--batch`
/// (100) with 8 in parallel and another 100 with 32. Then the first 100 go into a controller group
/// that is toggled at once (fan-out), `--toggles` (10) times.
func parallelBench(_ options: Options) async throws {
    let size = options.int("fleet", 1000)
    let sequential = options.int("sequential", 20)
    let batch = options.int("batch", 100)
    let toggles = options.int("toggles", 10)
    guard sequential + 2 * batch <= size else { throw BenchError.usage("--fleet must hold --sequential + 2 × --batch") }
    let directory = try scratchDirectory("parallel")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var configuration = Fleet.Configuration(
        groups: [Fleet.Group(type: "on-off-light", count: size)],
        storagePath: directory + "/fleet.sqlite", pkiDirectory: fixturesPKI())
    configuration.basePort = 0
    configuration.advertise = false
    let clock = ContinuousClock()
    var start = clock.now
    let fleet = try await Fleet.start(configuration)
    report("parallel: fleet of \(size) on-off lights started in \(fmt(milliseconds(clock.now - start))) ms")
    let controller = try await loopbackController(directory)

    var first = 0
    var batches: [(concurrency: Int, first: Int)] = []
    for (concurrency, count) in [(1, sequential), (8, batch), (32, batch)] {
        let cpu = processCPUSeconds()
        let round = await commissionRound(
            controller, fleet: fleet, first: first, count: count, concurrency: concurrency)
        let used = processCPUSeconds() - cpu
        report(
            "parallel: \(round.latency.count) of \(count) commissioned with \(concurrency) in parallel in "
                + "\(fmt(round.wall)) ms: \(fmt(round.rate)) commissionings/s, each p50 \(fmt(round.latency.p(0.5))) ms, "
                + "p95 \(fmt(round.latency.p(0.95))) ms; \(round.failures.count) failed; process CPU "
                + "\(fmt(used * 1000 / Double(max(1, count)))) ms per commissioning, \(fmt(used / (round.wall / 1000))) cores busy"
        )
        for failure in round.failures.prefix(5) { report("parallel:   failure: \(failure)") }
        figure(
            "commissioning-rate-\(concurrency)",
            "commissionings/s, \(concurrency) in parallel (\(count) of a fleet of \(size), one controller)",
            median: (round.rate * 10).rounded() / 10, unit: "/s")
        figure(
            "commissioning-parallel-\(concurrency)",
            "one commissioning with \(concurrency) in parallel (\(count) of a fleet of \(size))",
            median: round.latency.p(0.5), tail: round.latency.p(0.95), unit: "ms")
        if count == batch, concurrency > 1 {
            figure(
                "fleet-commission-\(batch)-at-\(concurrency)",
                "\(batch) of a fleet of \(size) commissioned, \(concurrency) in parallel: wall time"
                    + (round.failures.isEmpty ? "" : " (\(round.failures.count) failed)"),
                median: round.wall / 1000, unit: "s")
            batches.append((concurrency, first))
        }
        first += count
    }

    // The first batch of 100 in a group, toggled at once.
    if let group = batches.first {
        let name = "bench-\(batch)"
        try controller.store.createGroup(name)
        for index in group.first..<(group.first + batch) {
            try controller.store.addToGroup(name, nodeID: NodeID(UInt64(index + 1)), endpoint: EndpointID(1))
        }
        var samples = Samples()
        var failed = 0
        var errors: [String: Int] = [:]
        for _ in 0..<toggles {
            start = clock.now
            let result = try await controller.forEachMember(of: name) { controller, member throws(ControllerError) in
                try await controller.toggle(member.nodeID, endpoint: member.endpoint)
            }
            samples.add(clock.now - start)
            failed += result.failures.count
            for failure in result.failures { errors["\(failure.error.map { "\($0)" } ?? "?")", default: 0] += 1 }
        }
        for (error, count) in errors.sorted(by: { $0.value > $1.value }).prefix(3) {
            report("parallel:   \(count) × \(error)")
        }
        report(
            "parallel: group toggle of \(batch) (fan-out over their CASE sessions): first \(fmt(samples.values[0])) ms, "
                + "p50 \(fmt(samples.p(0.5))) ms, p95 \(fmt(samples.p(0.95))) ms over \(toggles); \(failed) member failures"
        )
        figure(
            "group-toggle-\(batch)", "group toggle of \(batch) commissioned devices (fan-out, \(toggles) times)",
            median: samples.p(0.5), tail: samples.p(0.95), unit: "ms")
    }
    report("parallel: resident \(residentKilobytes() / 1024) MiB with \(size) devices and \(first) commissioned")
    await controller.stop()
    await fleet.stop()
}

/// `serve-fleet --count N --ready FILE [--commissionings K]`: a fleet of N on-off lights on loopback
/// (no DNS-SD) for a controller in another process; writes their ports and passcodes to FILE, runs
/// until SIGTERM, then reports the CPU its devices used meanwhile (per commissioning, given K).
func serveFleet(_ options: Options) async throws {
    let count = options.int("count", 100)
    let readyPath = try options.required("ready")
    let directory = try scratchDirectory("serve-fleet")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var configuration = Fleet.Configuration(
        groups: [Fleet.Group(type: "on-off-light", count: count)],
        storagePath: directory + "/fleet.sqlite", pkiDirectory: fixturesPKI())
    configuration.basePort = 0
    configuration.advertise = false
    let fleet = try await Fleet.start(configuration)
    let rows: [[String: Any]] = fleet.devices.enumerated().map { index, device in
        [
            "index": index, "port": Int(device.port), "discriminator": Int(device.configuration.discriminator),
            "passcode": Int(device.configuration.passcode),
        ]
    }
    try writeJSON(["devices": rows, "pid": Int(getpid())], to: readyPath)
    let cpu = processCPUSeconds()
    await waitForTermination()
    let used = processCPUSeconds() - cpu
    let commissionings = options.int("commissionings", count)
    report(
        "split: the devices' process used \(fmt(used * 1000)) ms CPU, \(fmt(used * 1000 / Double(commissionings))) ms "
            + "per commissioning")
    figure(
        "split-device-cpu", "  devices' CPU per commissioning (their own process)",
        median: used * 1000 / Double(commissionings), unit: "ms")
    await fleet.stop()
}

/// `split-commission --ready FILE --count N --concurrency C`: one controller commissions N devices
/// of a `serve-fleet` in another process, C at a time, and reports its own CPU per commissioning: the
/// work on the controller's one queue, which bounds one controller's rate whatever the cores.
func splitCommission(_ options: Options) async throws {
    let devices = try LANDevice.load(try options.required("ready"))
    let count = min(options.int("count", 100), devices.count)
    let concurrency = options.int("concurrency", 32)
    let directory = try scratchDirectory("split")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let controller = try await loopbackController(directory)
    let clock = ContinuousClock()
    let dispenser = IndexDispenser(from: 0, count: count)
    let cpu = processCPUSeconds()
    let start = clock.now
    let failures = await withTaskGroup(of: Int.self) { group in
        for _ in 0..<concurrency {
            group.addTask {
                var failed = 0
                while let index = dispenser.take() {
                    let device = devices[index]
                    do {
                        _ = try await controller.commission(
                            CommissioningRequest(
                                locator: .address(try DirectAddress(parsing: "[::1]:\(device.port)")),
                                passcode: device.passcode, nodeID: NodeID(UInt64(index + 1))))
                    } catch {
                        failed += 1
                    }
                }
                return failed
            }
        }
        return await group.reduce(0, +)
    }
    let wall = milliseconds(clock.now - start) / 1000
    let used = processCPUSeconds() - cpu
    let perCommissioning = used * 1000 / Double(count)
    report(
        "split: one controller, devices in another process: \(count - failures) of \(count) commissioned, "
            + "\(concurrency) in parallel, in \(fmt(wall * 1000)) ms (\(fmt(Double(count) / wall)) per s); the controller "
            + "used \(fmt(perCommissioning)) ms CPU per commissioning (\(fmt(used / wall)) cores busy), so one controller "
            + "tops out near \(fmt(1000 / perCommissioning)) commissionings/s")
    figure(
        "split-commission-rate", "commissionings/s, \(concurrency) in parallel, devices in another process",
        median: (Double(count) / wall * 10).rounded() / 10, unit: "/s")
    figure(
        "split-controller-cpu", "  controller's CPU per commissioning (its one queue)", median: perCommissioning,
        unit: "ms")
    await controller.stop()
}
