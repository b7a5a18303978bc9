import Dispatch
import Foundation
import MatterController
import MatterCore
import MatterDevice
import MatterDiscovery
import MatterOnboarding
import MatterStorage
import MatterTransport
import Synchronization

// The parts measured on the virtual LAN of scripts/lan.sh (real Avahi, one host per role); bench.sh
// starts each in its host with `lan.sh exec`. Files pass between hosts through /tmp, which they share.

/// Records the handling samples of many devices.
final class DeviceTimings: Sendable {
    private let transports = Mutex<[Int: TimedTransport]>([:])

    func wrapper(for index: Int) -> @Sendable (any DatagramTransport) -> any DatagramTransport {
        { [self] inner in
            let timed = TimedTransport(inner)
            transports.withLock { $0[index] = timed }
            return timed
        }
    }

    /// `{"<index>": [[received, busy], ...]}`.
    var json: [String: Any] {
        transports.withLock { all in
            var out: [String: Any] = [:]
            for (index, transport) in all {
                out[String(index)] = transport.recorded.map { [$0.received, $0.busy] }
            }
            return out
        }
    }
}

/// `lan-devices --count N --base-discriminator D --ready FILE --timing FILE`: N dimmable lights with
/// passcode 20202021 and discriminators D, D+1, ... on any free ports, advertised through one Avahi
/// client, each datagram's handling timed. Writes FILE (`ready`) with their ports, runs until SIGTERM,
/// then writes the samples to the timing file.
func lanDevices(_ options: Options) async throws {
    let count = options.int("count", 20)
    let base = options.int("base-discriminator", 1000)
    let readyPath = try options.required("ready")
    let timingPath = try options.required("timing")
    let directory = try scratchDirectory("lan-devices")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let dnssd = try await AvahiDNSSD.start(label: "bench.lan-devices")
    let timings = DeviceTimings()
    var devices: [VirtualDevice] = []
    for index in 0..<count {
        var configuration = VirtualDeviceConfiguration(
            deviceType: options.string("type") ?? "dimmable-light", storagePath: directory + "/devices.sqlite",
            pkiDirectory: fixturesPKI())
        configuration.storageNamespace = "lan/\(index)"
        configuration.port = 0
        configuration.discriminator = UInt16((base + index) % 4096)
        configuration.passcode = 20_202_021
        configuration.transportWrapper = timings.wrapper(for: index)
        devices.append(try await VirtualDevice.start(configuration, dnssd: dnssd))
    }
    let rows: [[String: Any]] = devices.enumerated().map { index, device in
        [
            "index": index, "port": Int(device.port), "discriminator": Int(device.configuration.discriminator),
            "passcode": Int(device.configuration.passcode),
        ]
    }
    try writeJSON(["devices": rows], to: readyPath)
    await waitForTermination()
    try writeJSON(["devices": timings.json], to: timingPath)
    for device in devices { await device.stop() }
    await dnssd.stop()
}

/// The `ready` file of `lan-devices`.
struct LANDevice {
    let index: Int
    let port: UInt16
    let discriminator: UInt16
    let passcode: UInt32

    static func load(_ path: String) throws -> [LANDevice] {
        guard let root = try readJSON(path) as? [String: Any], let rows = root["devices"] as? [[String: Any]] else {
            throw BenchError.failed("\(path): no device list")
        }
        return rows.compactMap { row in
            guard let index = row["index"] as? Int, let port = row["port"] as? Int,
                let d = row["discriminator"] as? Int,
                let p = row["passcode"] as? Int
            else { return nil }
            return LANDevice(index: index, port: UInt16(port), discriminator: UInt16(d), passcode: UInt32(p))
        }
    }
}

/// Times each commissioning stage (on this process's clock, finer than the events' milliseconds).
final class StageClock: Sendable {
    private let clock = ContinuousClock()
    private let started = Mutex<[CommissioningStage: ContinuousClock.Instant]>([:])
    private let durations = Mutex<[CommissioningStage: Double]>([:])

    func observe(_ event: CommissioningEvent) {
        switch event.outcome {
        case .started: started.withLock { $0[event.stage] = clock.now }
        case .succeeded:
            if let start = started.withLock({ $0[event.stage] }) {
                let elapsed = milliseconds(clock.now - start)
                durations.withLock { $0[event.stage] = elapsed }
            }
        default: break
        }
    }

    func duration(_ stage: CommissioningStage) -> Double? { durations.withLock { $0[stage] } }
}

/// `lan-commission --ready FILE --host IPV4 [--runs N] [--first I]`: our commissioner (Avahi
/// discovery) commissions devices of `lan-devices` on another host, three per run in turn: found by
/// discriminator with CASE opened at the commissioning address while the operational record is looked
/// up (the default), found by discriminator waiting for the operational record before CASE (the way
/// before, `caseAtCommissioningAddress` off), and by direct address (the host's IPv4 address and the
/// port from FILE).
func lanCommission(_ options: Options) async throws {
    let devices = try LANDevice.load(try options.required("ready"))
    let host = try options.required("host")
    let runs = options.int("runs", 10)
    let first = options.int("first", 0)
    guard first + 3 * runs <= devices.count else { throw BenchError.usage("not enough devices for \(runs) runs") }
    let directory = try scratchDirectory("lan-commission")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    func open(_ name: String, caseAtCommissioningAddress: Bool) async throws -> Controller {
        var configuration = ControllerConfiguration(
            store: try ControllerStore(path: directory + "/\(name).sqlite"),
            transport: try UDPEndpoint(queue: DispatchQueue(label: "bench-lan-\(name)")), discovery: .avahi,
            trustStore: try DefaultPAATrustStore.load(directory: fixturesPKI() + "/paa-trust-store"))
        configuration.caseAtCommissioningAddress = caseAtCommissioningAddress
        return try await Controller.open(configuration)
    }
    let controller = try await open("controller", caseAtCommissioningAddress: true)
    let waiting = try await open("waiting", caseAtCommissioningAddress: false)
    enum Mode: CaseIterable { case discovery, waitingForRecord, direct }
    let clock = ContinuousClock()
    var totals: [Mode: Samples] = [:]
    var browse = Samples()
    var operational = Samples()
    var stageTotals: [CommissioningStage: Samples] = [:]
    var failures: [String] = []
    for run in 0..<runs {
        // Rotate which goes first, so drifting load falls on all alike.
        let modes = (0..<3).map { Mode.allCases[($0 + run) % 3] }
        for (slot, mode) in modes.enumerated() {
            let device = devices[first + 3 * run + slot]
            let locator: CommissioningRequest.Locator =
                mode == .direct
                ? .address(try DirectAddress(parsing: "\(host):\(device.port)"))
                : .discriminator(.long(device.discriminator), vendorID: nil, productID: nil)
            let stages = StageClock()
            let start = clock.now
            do {
                _ = try await (mode == .waitingForRecord ? waiting : controller).commission(
                    CommissioningRequest(
                        locator: locator, passcode: device.passcode,
                        nodeID: NodeID(UInt64(device.index + 1))),
                    progress: { stages.observe($0) })
            } catch {
                failures.append("device \(device.index) (\(mode)): \(error)")
                continue
            }
            totals[mode, default: Samples()].add(milliseconds(clock.now - start))
            switch mode {
            case .discovery:
                if let d = stages.duration(.discovery) { browse.add(d) }
                for stage in CommissioningStage.allCases {
                    if let d = stages.duration(stage) { stageTotals[stage, default: Samples()].add(d) }
                }
            case .waitingForRecord:
                if let d = stages.duration(.findOperational) { operational.add(d) }
            case .direct: break
            }
        }
    }
    await controller.stop()
    await waiting.stop()
    let discovered = totals[.discovery] ?? Samples()
    let direct = totals[.direct] ?? Samples()
    let waited = totals[.waitingForRecord] ?? Samples()
    report(
        "lan: our commissioner on h2, our device on h1 (virtual LAN, Avahi): \(discovered.count) by discovery, "
            + "\(waited.count) by discovery waiting for the operational record, \(direct.count) by direct address; "
            + "\(failures.count) failed")
    for failure in failures.prefix(5) { report("lan:   failure: \(failure)") }
    report(
        "lan: with discovery: p50 \(fmt(discovered.p(0.5))) ms, p95 \(fmt(discovered.p(0.95))) ms; waiting for the "
            + "operational record: p50 \(fmt(waited.p(0.5))) ms; direct address: "
            + "p50 \(fmt(direct.p(0.5))) ms, p95 \(fmt(direct.p(0.95))) ms")
    let stageLine = CommissioningStage.allCases.compactMap { stage in
        stageTotals[stage].map { "\(stage.name) \(fmt($0.p(0.5)))" }
    }.joined(separator: ", ")
    report("lan: with discovery, stage p50s (ms): \(stageLine)")
    if let path = options.string("stages") {
        var medians: [String: Double] = [:]
        for (stage, samples) in stageTotals { medians[stage.rawValue] = samples.p(0.5) }
        medians["total"] = discovered.p(0.5)
        try writeJSON(medians, to: path)
    }
    figure(
        "lan-commissioning-discovery", "full commissioning on the LAN, with discovery (\(discovered.count) runs)",
        median: discovered.p(0.5), tail: discovered.p(0.95), unit: "ms")
    figure(
        "lan-commissioning-waiting",
        "  the same, waiting for the operational record before CASE (the way before; \(waited.count) runs)",
        median: waited.p(0.5), tail: waited.p(0.95), unit: "ms")
    figure(
        "lan-commissioning-direct", "full commissioning on the LAN, direct address, same run (\(direct.count) runs)",
        median: direct.p(0.5), tail: direct.p(0.95), unit: "ms")
    figure(
        "lan-discovery-commissionable", "  of which: commissionable discovery (browse _L<d>, resolve)",
        median: browse.p(0.5), tail: browse.p(0.95), unit: "ms")
    figure(
        "lan-discovery-operational",
        "  operational discovery after AddNOC (resolve _matter._tcp; off the critical path by default)",
        median: operational.p(0.5), tail: operational.p(0.95), unit: "ms")
}

/// `lan-fleet --count N --base-discriminator D --start-file FILE --ready FILE [--publishing probe]
/// [--mdns embedded]`: writes the time it starts to the start file, starts a fleet of N on-off lights
/// advertised through Avahi (raw records, or probed services with `--publishing probe`) or through the
/// embedded mDNS responder (`--mdns embedded`, figures suffixed `-embedded`), writes the
/// ready file (start-up time, resident memory, ports and passcodes), then runs until SIGTERM and prints
/// its resident memory then.
func lanFleet(_ options: Options) async throws {
    let count = options.int("count", 1000)
    let startPath = try options.required("start-file")
    let readyPath = try options.required("ready")
    let directory = try scratchDirectory("lan-fleet")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let before = residentKilobytes()
    let start = unixTime()
    try writeJSON(["start": start], to: startPath)
    var configuration = Fleet.Configuration(
        groups: [Fleet.Group(type: "on-off-light", count: count)],
        storagePath: directory + "/fleet.sqlite", pkiDirectory: fixturesPKI())
    configuration.basePort = 0
    configuration.baseDiscriminator = UInt16(options.int("base-discriminator", 0))
    configuration.advertise = true
    configuration.dnssdPublishing = options.string("publishing") == "probe" ? .probedServices : .rawRecords
    configuration.mdns = MDNSBackend(rawValue: options.string("mdns") ?? "avahi") ?? .avahi
    let embedded = configuration.mdns == .embedded
    let suffix = (configuration.dnssdPublishing == .probedServices ? "-probe" : "") + (embedded ? "-embedded" : "")
    let how =
        (configuration.dnssdPublishing == .probedServices ? ", --probe" : "") + (embedded ? ", --mdns embedded" : "")
    let fleet = try await Fleet.start(configuration)
    let started = unixTime()
    let rows: [[String: Any]] = fleet.devices.enumerated().map { index, device in
        [
            "index": index, "port": Int(device.port), "discriminator": Int(device.configuration.discriminator),
            "passcode": Int(device.configuration.passcode),
        ]
    }
    try writeJSON(
        [
            "start": start, "started": started, "residentKB": residentKilobytes(), "baselineKB": before,
            "devices": rows,
        ], to: readyPath)
    await waitForTermination()
    let after = residentKilobytes()
    report(
        "lan-fleet\(suffix): \(count) devices, started in \(fmt((started - start) * 1000)) ms; resident \(after / 1024) MiB "
            + "after advertising (\(fmt(Double(after - before) / Double(count))) kB per device)")
    figure(
        "lan-fleet-rss-\(count)\(suffix)", "fleet of \(count) advertised on the LAN\(how): resident memory",
        median: Double(after) * 1024 / 1e6, unit: "MB")
    figure(
        "lan-fleet-rss-per-device-\(count)\(suffix)", "fleet of \(count) advertised on the LAN\(how): per device",
        median: Double(after - before) / Double(count), unit: "KiB")
    await fleet.stop()
}

/// `lan-browse --expect N --start-file FILE [--timeout S] [--commission-ready FILE] [--publishing probe]
/// [--fleet-mdns embedded] [--mdns embedded]` (the publishing options only name the figures after the fleet's
/// way of publishing): browses `_matterc._udp` through this host's Avahi (or the embedded querier with
/// `--mdns embedded`) until N instances are resolved (SRV, TXT, address), and
/// reports when the first, half and all of them were, counted from the time in the start file that
/// `lan-fleet` wrote on the other host. With `--commission-ready` (the fleet's ready file), then
/// commissions one device of the fleet by discriminator to show they are commissionable.
func lanBrowse(_ options: Options) async throws {
    let expected = options.int("expect", 1000)
    let startPath = try options.required("start-file")
    let timeout = Duration.seconds(options.int("timeout", 60))
    let browser = MDNSBackend(rawValue: options.string("mdns") ?? "avahi") ?? .avahi
    let dnssd = try await browser.start(label: "bench.lan-browse")
    let seen = Mutex<[Double]>([])
    let services = try await dnssd.browse(
        CommissionableFilter.any.query, timeout: timeout, limit: expected,
        accept: { _ in
            seen.withLock { $0.append(unixTime()) }
            return true
        })
    await dnssd.stop()
    let times = seen.withLock { $0 }
    let probed = options.string("publishing") == "probe"
    let fleetEmbedded = options.string("fleet-mdns") == "embedded"
    let suffix =
        (probed ? "-probe" : "") + (fleetEmbedded ? "-embedded" : "") + (browser == .embedded ? "-embedded-browse" : "")
    let how =
        (probed ? ", --probe" : "") + (fleetEmbedded ? ", fleet --mdns embedded" : "")
        + (browser == .embedded ? ", browsed by the embedded querier" : "")
    guard let root = try readJSON(startPath) as? [String: Any], let start = root["start"] as? Double else {
        throw BenchError.failed("\(startPath): no start time")
    }
    func after(_ n: Int) -> Double? { n >= 1 && n <= times.count ? (times[n - 1] - start) * 1000 : nil }
    let all = after(expected)
    report(
        "lan-browse\(suffix): \(services.count) of \(expected) commissionable instances resolved from the other host; "
            + "first after \(after(1).map(fmt) ?? "-") ms, half after \(after(expected / 2).map(fmt) ?? "-") ms, "
            + "95 % after \(after((expected * 95 + 99) / 100).map(fmt) ?? "-") ms, "
            + "99 % after \(after((expected * 99 + 99) / 100).map(fmt) ?? "-") ms, "
            + "all after \(all.map(fmt) ?? "never (within \(timeout))") ms")
    figure(
        "lan-fleet-advertised-\(expected)\(suffix)",
        "fleet of \(expected) on h1: all advertised and resolved on h2 (from process start)\(how)"
            + (all == nil ? " - only \(services.count) seen" : ""),
        median: (all ?? Double(timeout.components.seconds) * 1000) / 1000, unit: "s")

    if let readyPath = options.string("commission-ready") {
        // The fleet writes it once its last device has started (the browse may finish just before).
        for _ in 0..<600 where !FileManager.default.fileExists(atPath: readyPath) {
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Task.sleep(for: .milliseconds(100))
        let devices = try LANDevice.load(readyPath)
        guard let device = devices.dropFirst(devices.count / 2).first else { return }
        let directory = try scratchDirectory("lan-browse")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let controller = try await Controller.open(
            ControllerConfiguration(
                store: try ControllerStore(path: directory + "/controller.sqlite"),
                transport: try UDPEndpoint(queue: DispatchQueue(label: "bench-lan-browse")),
                discovery: .mdns(browser),
                trustStore: try DefaultPAATrustStore.load(directory: fixturesPKI() + "/paa-trust-store")))
        let clock = ContinuousClock()
        let begin = clock.now
        do {
            _ = try await controller.commission(
                CommissioningRequest(
                    locator: .discriminator(.long(device.discriminator), vendorID: nil, productID: nil),
                    passcode: device.passcode, nodeID: NodeID(1)))
            let elapsed = milliseconds(clock.now - begin)
            report(
                "lan-browse\(suffix): device \(device.index) of the fleet commissioned by discriminator in \(fmt(elapsed)) ms"
            )
            figure(
                "lan-fleet-commission-one\(suffix)",
                "one device of the advertised fleet of \(expected), found and commissioned\(how)",
                median: elapsed, unit: "ms")
        } catch {
            report("lan-browse: commissioning device \(device.index) of the fleet failed: \(error)")
        }
        await controller.stop()
    }
}
