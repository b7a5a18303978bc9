import Dispatch
import Foundation
import MatterClusters
import MatterController
import MatterCore
import MatterDiscovery
import MatterInteraction
import MatterOnboarding
import MatterStorage

/// `rr-memory --ready FILE`: the device memory behind TC_RR_1_1's minima, measured on a device in
/// another process (`serve-fleet --count 1`, whose ready file names its pid): its resident memory
/// fresh, with 5 fabrics (each commissioned by its own controller; fabric 1 opens a window for each
/// of the others, and each leaves one CASE session), with 2 more CASE sessions per fabric (further
/// controllers on each fabric's store), and with one 3-path subscription per fabric.
func rrMemory(_ options: Options) async throws {
    let readyPath = try options.required("ready")
    guard let root = try readJSON(readyPath) as? [String: Any], let pid = root["pid"] as? Int,
        let device = try LANDevice.load(readyPath).first
    else { throw BenchError.failed("\(readyPath): no pid or device") }
    func rss() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        return 0
    }
    func settle() async throws { try await Task.sleep(for: .milliseconds(500)) }
    let fabrics = 5
    let base = try scratchDirectory("rr-memory")
    defer { try? FileManager.default.removeItem(atPath: base) }
    try await settle()
    let fresh = rss()
    var controllers: [(controller: Controller, node: NodeID, directory: String)] = []
    for index in 0..<fabrics {
        let directory = base + "/fabric\(index)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let controller = try await loopbackController(directory, label: "rr-\(index)")
        let node = NodeID(UInt64(0x100 + index))
        var passcode = device.passcode
        if let first = controllers.first {
            passcode = try await first.controller.openCommissioningWindow(first.node).payload.passcode
        }
        _ = try await controller.commission(
            CommissioningRequest(
                locator: .address(try DirectAddress(parsing: "[::1]:\(device.port)")), passcode: passcode,
                nodeID: node))
        controllers.append((controller, node, directory))
    }
    try await settle()
    let withFabrics = rss()
    var extra: [Controller] = []
    for (_, node, directory) in controllers {
        for copy in 0..<2 {
            let controller = try await loopbackController(directory, label: "rr-extra-\(copy)")
            _ = try await controller.readAttribute(
                node, endpoint: .root, cluster: .basicInformation, attribute: .BasicInformation.nodeLabel)
            extra.append(controller)
        }
    }
    try await settle()
    let withSessions = rss()
    let paths = [
        AttributePathIB(ConcreteAttributePath(endpoint: EndpointID(1), cluster: .onOff, attribute: .OnOff.onOff)),
        AttributePathIB(
            ConcreteAttributePath(endpoint: .root, cluster: .basicInformation, attribute: .BasicInformation.nodeLabel)),
        AttributePathIB(
            ConcreteAttributePath(endpoint: EndpointID(1), cluster: .identify, attribute: .Identify.identifyTime)),
    ]
    var subscriptions: [(Controller, ClientSubscription)] = []
    for (controller, node, _) in controllers {
        let subscription = try await controller.subscribe(
            node, paths: paths, minInterval: 0, maxInterval: 60, onReport: { _ in })
        subscriptions.append((controller, subscription))
    }
    try await settle()
    let withSubscriptions = rss()
    let perFabric = (withFabrics - fresh) / Double(fabrics)
    let perSession = (withSessions - withFabrics) / Double(2 * fabrics)
    let perSubscription = (withSubscriptions - withSessions) / Double(fabrics)
    report(
        "rr-memory: device process resident \(fmt(fresh)) kB fresh, \(fmt(withFabrics)) kB with \(fabrics) fabrics, "
            + "\(fmt(withSessions)) kB with 3 CASE sessions per fabric, \(fmt(withSubscriptions)) kB with a 3-path "
            + "subscription per fabric")
    figure(
        "rr-rss-fabric", "device memory per fabric (commissioned, with its CASE session; 5 fabrics)",
        median: perFabric, unit: "KiB")
    figure("rr-rss-session", "device memory per further CASE session (10 sessions)", median: perSession, unit: "KiB")
    figure(
        "rr-rss-subscription", "device memory per subscription (3 attribute paths; 5 subscriptions)",
        median: perSubscription, unit: "KiB")
    for (controller, subscription) in subscriptions { await controller.cancel(subscription) }
    for controller in extra { await controller.stop() }
    for (controller, _, _) in controllers { await controller.stop() }
}
