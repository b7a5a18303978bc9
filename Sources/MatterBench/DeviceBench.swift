import Dispatch
import Foundation
import MatterController
import MatterCore
import MatterDevice
import MatterDiscovery
import MatterStorage
import MatterTransport

/// The repository's fixtures/pki, next to the binary's build directory (or MATTER_EMU_PKI).
func fixturesPKI() -> String {
    if let env = ProcessInfo.processInfo.environment["MATTER_EMU_PKI"] { return env }
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    for _ in 0..<5 {
        let candidate = directory.appendingPathComponent("fixtures/pki")
        if FileManager.default.fileExists(atPath: candidate.path) { return candidate.path }
        directory = directory.deletingLastPathComponent()
    }
    return FileManager.default.currentDirectoryPath + "/fixtures/pki"
}

func scratchDirectory(_ name: String) throws -> String {
    let path = NSTemporaryDirectory() + "matter-emu-bench-\(name)-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A controller on loopback with its own store in `directory`, no DNS-SD.
func loopbackController(_ directory: String, label: String = "bench-controller") async throws -> Controller {
    try await Controller.open(
        ControllerConfiguration(
            store: try ControllerStore(path: directory + "/controller.sqlite"),
            transport: try UDPEndpoint(queue: DispatchQueue(label: label)), discovery: .none,
            trustStore: try DefaultPAATrustStore.load(directory: fixturesPKI() + "/paa-trust-store")))
}

/// Full commissioning (PASE, attestation, CSR, NOC, CASE, CommissioningComplete) by our commissioner
/// of our device on loopback with a direct address; then, over the CASE session of the first one,
/// Toggle invokes through the typed API: round trips one at a time, then invokes per second with 1, 8
/// and 64 outstanding (concurrent callers).
func commissioningBench(count: Int, invokes: Int) async throws {
    let clock = ContinuousClock()
    var commissioning = Samples()
    var stages: [CommissioningStage: Samples] = [:]
    for index in 0..<count {
        let directory = try scratchDirectory("commissioning")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = VirtualDeviceConfiguration(
            deviceType: "dimmable-light", storagePath: directory + "/device.sqlite",
            pkiDirectory: fixturesPKI())
        configuration.port = 0
        configuration.advertise = false
        let device = try await VirtualDevice.start(configuration)
        let controller = try await loopbackController(directory)
        let stageClock = StageClock()
        let start = clock.now
        _ = try await controller.commission(
            CommissioningRequest(
                locator: .address(try DirectAddress(parsing: "[::1]:\(device.port)")), passcode: 20_202_021,
                nodeID: NodeID(1)), progress: { stageClock.observe($0) })
        commissioning.add(clock.now - start)
        for stage in CommissioningStage.allCases {
            if let d = stageClock.duration(stage) { stages[stage, default: Samples()].add(d) }
        }
        if index == 0 { try await invokeBench(controller, count: invokes) }
        await controller.stop()
        await device.stop()
    }
    report(
        "commissioning ::1 direct address (our commissioner, our device, 1000 PBKDF2 iterations): "
            + "p50 \(fmt(commissioning.p(0.5))) ms, p95 \(fmt(commissioning.p(0.95))) ms over \(count)")
    report(
        "commissioning ::1 direct address, stage p50s (ms): "
            + CommissioningStage.allCases.compactMap { stage in
                stages[stage].map { "\(stage.name) \(fmt($0.p(0.5)))" }
            }.joined(separator: ", "))
    figure(
        "commissioning-direct", "full commissioning ::1, direct address (\(count) runs)",
        median: commissioning.p(0.5), tail: commissioning.p(0.95), unit: "ms")
}

/// Toggle round trips over an established CASE session, then throughput with 1, 8 and 64 callers.
func invokeBench(_ controller: Controller, count: Int) async throws {
    let clock = ContinuousClock()
    for _ in 0..<200 { try await controller.toggle(NodeID(1)) }  // warm-up
    var latency = Samples()
    for _ in 0..<count {
        let t = clock.now
        try await controller.toggle(NodeID(1))
        latency.add(clock.now - t)
    }
    report(
        "invoke round trip (Toggle over CASE, typed API): p50 \(fmt(latency.p(0.5))) ms, "
            + "p99 \(fmt(latency.p(0.99))) ms over \(latency.count)")
    figure(
        "invoke-rt", "invoke round trip (Toggle over CASE, typed API, \(count) sequential)",
        median: latency.p(0.5), tail: latency.p(0.99), tailName: "p99", unit: "ms")
    for outstanding in [1, 8, 64] {
        let start = clock.now
        let cpu = processCPUSeconds()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<outstanding {
                group.addTask {
                    var i = worker
                    while i < count {
                        try await controller.toggle(NodeID(1))
                        i += outstanding
                    }
                }
            }
            try await group.waitForAll()
        }
        let rate = Double(count) / (milliseconds(clock.now - start) / 1000)
        let cpuPerInvoke = (processCPUSeconds() - cpu) * 1_000_000 / Double(count)
        report(
            "invokes/s (Toggle over one CASE session, typed API), \(outstanding) outstanding: \(Int(rate)) over \(count); "
                + "CPU of both ends (one process) \(Int(cpuPerInvoke)) µs per invoke")
        figure(
            "invoke-rate-\(outstanding)", "invokes/s, \(outstanding) outstanding (Toggle, typed API, one CASE session)",
            median: rate.rounded(), unit: "/s")
    }
}

/// Start-up time and memory of a fleet in a fresh process (ports picked by the OS, no DNS-SD).
func fleetBench(size: Int) async throws {
    let directory = try scratchDirectory("fleet")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let before = residentKilobytes()
    var configuration = Fleet.Configuration(
        groups: [Fleet.Group(type: "on-off-light", count: size)],
        storagePath: directory + "/fleet.sqlite", pkiDirectory: fixturesPKI())
    configuration.basePort = 0
    configuration.advertise = false
    let clock = ContinuousClock()
    let start = clock.now
    let fleet = try await Fleet.start(configuration)
    let elapsed = milliseconds(clock.now - start)
    let after = residentKilobytes()
    let perDevice = Double(after - before) / Double(size)
    report(
        "fleet of \(size) on-off lights: started (commissionable, no DNS-SD) in \(fmt(elapsed)) ms; resident "
            + "\(after / 1024) MiB (+\(fmt(perDevice)) kB per device)")
    figure(
        "fleet-start-\(size)", "fleet of \(size): start-up to commissionable (loopback, no DNS-SD)",
        median: elapsed, unit: "ms")
    figure(
        "fleet-rss-\(size)", "fleet of \(size): resident memory of the process", median: Double(after) * 1024 / 1e6,
        unit: "MB")
    figure(
        "fleet-rss-per-device-\(size)", "fleet of \(size): resident memory per device", median: perDevice, unit: "KiB")
    await fleet.stop()
}

/// CASE between our controller and a commissioned device: full handshakes (no resumption record)
/// and resumed ones, each timed on the initiator.
func caseBench(count: Int) async throws {
    let directory = try scratchDirectory("case")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var configuration = VirtualDeviceConfiguration(
        deviceType: "on-off-plug", storagePath: directory + "/device.sqlite",
        pkiDirectory: fixturesPKI())
    configuration.port = 0
    configuration.advertise = false
    let device = try await VirtualDevice.start(configuration)
    let store = try ControllerStore(path: directory + "/controller.sqlite")
    let trust = try DefaultPAATrustStore.load(directory: fixturesPKI() + "/paa-trust-store")
    let address = try DirectAddress(parsing: "[::1]:\(device.port)")
    let first = try await Controller.open(
        ControllerConfiguration(
            store: store, transport: try UDPEndpoint(queue: DispatchQueue(label: "bench-case")), discovery: .none,
            trustStore: trust))
    _ = try await first.commission(
        CommissioningRequest(locator: .address(address), passcode: 20_202_021, nodeID: NodeID(1)))
    await first.stop()
    let clock = ContinuousClock()
    var full: [Double] = []
    var resumed: [Double] = []
    for _ in 0..<count {
        // A new controller process has no resumption record: its first CASE is a full handshake;
        // after dropping the session, the second one resumes.
        let controller = try await Controller.open(
            ControllerConfiguration(
                store: store, transport: try UDPEndpoint(queue: DispatchQueue(label: "bench-case")), discovery: .none,
                trustStore: trust))
        await controller.setAddress(address, for: NodeID(1))
        var start = clock.now
        try await controller.toggle(NodeID(1))
        full.append(milliseconds(clock.now - start))
        await controller.closeSession(NodeID(1))
        start = clock.now
        try await controller.toggle(NodeID(1))
        resumed.append(milliseconds(clock.now - start))
        await controller.stop()
    }
    full.sort()
    resumed.sort()
    report(
        "case ::1 + first invoke: full handshake p50 \(fmt(percentile(full, 0.5))) ms, resumed p50 "
            + "\(fmt(percentile(resumed, 0.5))) ms over \(count) (each includes one Toggle round trip)")
    figure(
        "case-full", "CASE ::1, full handshake + first Toggle (\(count) runs)", median: percentile(full, 0.5),
        tail: percentile(full, 0.95), unit: "ms")
    figure(
        "case-resumed", "CASE ::1, resumed + first Toggle (\(count) runs)", median: percentile(resumed, 0.5),
        tail: percentile(resumed, 0.95), unit: "ms")
    await device.stop()
}
