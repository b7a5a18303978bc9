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

/// Resident memory of this process, kB (VmRSS).
func residentKilobytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
    return 0
}

/// Full commissioning (PASE, attestation, CSR, NOC, CASE, CommissioningComplete) by our commissioner
/// of our device on loopback with a direct address, then invoke round trips over the CASE session.
func commissioningBench(count: Int) async throws {
    let clock = ContinuousClock()
    var commissioning: [Double] = []
    var invokes: [Double] = []
    for index in 0..<count {
        let directory = try scratchDirectory("commissioning")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = VirtualDeviceConfiguration(deviceType: "dimmable-light", storagePath: directory + "/device.sqlite",
                                                       pkiDirectory: fixturesPKI())
        configuration.port = 0
        configuration.advertise = false
        let device = try await VirtualDevice.start(configuration)
        let controller = try await Controller.open(ControllerConfiguration(
            store: try ControllerStore(path: directory + "/controller.sqlite"),
            transport: try UDPEndpoint(queue: DispatchQueue(label: "bench-controller")), discovery: .none,
            trustStore: try DefaultPAATrustStore.load(directory: fixturesPKI() + "/paa-trust-store")))
        let start = clock.now
        _ = try await controller.commission(CommissioningRequest(
            locator: .address(try DirectAddress(parsing: "[::1]:\(device.port)")), passcode: 20_202_021,
            nodeID: NodeID(1)))
        commissioning.append(milliseconds(clock.now - start))
        if index == 0 {
            for _ in 0..<50 { try await controller.toggle(NodeID(1)) }  // warm-up
            for _ in 0..<1000 {
                let t = clock.now
                try await controller.toggle(NodeID(1))
                invokes.append(milliseconds(clock.now - t))
            }
        }
        await controller.stop()
        await device.stop()
    }
    commissioning.sort()
    invokes.sort()
    print("commissioning ::1 direct address (our commissioner, our device, 1000 PBKDF2 iterations): "
          + "p50 \(fmt(percentile(commissioning, 0.5))) ms, p95 \(fmt(percentile(commissioning, 0.95))) ms over \(count)")
    print("invoke round trip (Toggle over CASE, typed API): p50 \(fmt(percentile(invokes, 0.5))) ms, "
          + "p99 \(fmt(percentile(invokes, 0.99))) ms over \(invokes.count)")
}

/// Fleet start-up time and memory at each size.
func fleetBench(sizes: [Int]) async throws {
    for size in sizes {
        let directory = try scratchDirectory("fleet")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let before = residentKilobytes()
        var configuration = Fleet.Configuration(groups: [Fleet.Group(type: "on-off-light", count: size)],
                                                storagePath: directory + "/fleet.sqlite", pkiDirectory: fixturesPKI())
        configuration.basePort = 0
        configuration.advertise = false
        let clock = ContinuousClock()
        let start = clock.now
        let fleet = try await Fleet.start(configuration)
        let elapsed = milliseconds(clock.now - start)
        let after = residentKilobytes()
        print("fleet of \(size) on-off lights: started (commissionable, no DNS-SD) in \(fmt(elapsed)) ms; resident "
              + "\(after / 1024) MiB (+\(fmt(Double(after - before) / Double(size))) kB per device)")
        await fleet.stop()
    }
}

/// CASE between our controller and a commissioned device: full handshakes (no resumption record)
/// and resumed ones, each timed on the initiator.
func caseBench(count: Int) async throws {
    let directory = try scratchDirectory("case")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var configuration = VirtualDeviceConfiguration(deviceType: "on-off-plug", storagePath: directory + "/device.sqlite",
                                                   pkiDirectory: fixturesPKI())
    configuration.port = 0
    configuration.advertise = false
    let device = try await VirtualDevice.start(configuration)
    let store = try ControllerStore(path: directory + "/controller.sqlite")
    let trust = try DefaultPAATrustStore.load(directory: fixturesPKI() + "/paa-trust-store")
    let address = try DirectAddress(parsing: "[::1]:\(device.port)")
    let first = try await Controller.open(ControllerConfiguration(
        store: store, transport: try UDPEndpoint(queue: DispatchQueue(label: "bench-case")), discovery: .none,
        trustStore: trust))
    _ = try await first.commission(CommissioningRequest(locator: .address(address), passcode: 20_202_021, nodeID: NodeID(1)))
    await first.stop()
    let clock = ContinuousClock()
    var full: [Double] = []
    var resumed: [Double] = []
    for _ in 0..<count {
        // A new controller process has no resumption record: its first CASE is a full handshake;
        // after dropping the session, the second one resumes.
        let controller = try await Controller.open(ControllerConfiguration(
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
    print("case ::1 + first invoke: full handshake p50 \(fmt(percentile(full, 0.5))) ms, resumed p50 "
          + "\(fmt(percentile(resumed, 0.5))) ms over \(count) (each includes one Toggle round trip)")
    await device.stop()
}
