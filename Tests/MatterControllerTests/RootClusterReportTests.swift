import Dispatch
import MatterClusters
import MatterController
import MatterCore
import MatterDevice
import MatterInteraction
import MatterStorage
import MatterTLV
import MatterTestSupport
import MatterTransport
import Synchronization
import Testing

/// Subscriptions see every change of the root-node clusters, whichever way the device announced it
/// (one attribute, or the whole cluster: a commissioning window opening, a fail-safe rolled back).
@Suite("Root-node changes reach a subscription")
struct RootClusterReportTests {
    let directory: TemporaryDirectory
    let node = NodeID(21)

    init() throws { directory = try TemporaryDirectory() }

    /// Reports received, and a way to wait for one that carries a value.
    final class Reports: Sendable {
        private let reports = Mutex<[AttributeReport]>([])

        func record(_ report: SubscriptionReport) { reports.withLock { $0 += report.result.attributes } }

        /// Waits (up to 5 s) for a report of `attribute` of `cluster` on the root endpoint, received after
        /// `after` reports, whose value satisfies `matches`; returns it or nil.
        func wait(
            _ cluster: ClusterID, _ attribute: AttributeID, after: Int,
            matching matches: @Sendable (TLVValue) -> Bool = { _ in true }
        ) async throws -> TLVValue? {
            let path = ConcreteAttributePath(endpoint: .root, cluster: cluster, attribute: attribute)
            for _ in 0..<500 {
                let found = reports.withLock { reports in
                    reports.dropFirst(after).last { $0.path == path && $0.value.map(matches) == true }?.value
                }
                if let found { return found }
                try await Task.sleep(for: .milliseconds(10))
            }
            return nil
        }

        var count: Int { reports.withLock { $0.count } }
    }

    func commissionedAndSubscribed() async throws -> (VirtualDevice, Controller, ClientSubscription, Reports) {
        let device = try await VirtualDevices.start("on-off-light", in: directory, name: "root-reports")
        let store = try ControllerStore(path: directory.storePath)
        let endpoint = try UDPEndpoint(port: 0, queue: DispatchQueue(label: "test.root-reports"))
        let configuration = ControllerConfiguration(
            store: store, transport: endpoint, discovery: .none, trustStore: try DefaultPAATrustStore.make())
        let controller = try await Controller.open(configuration)
        _ = try await controller.commission(device.request(nodeID: node))
        let reports = Reports()
        let subscription = try await controller.subscribe(
            node, paths: [AttributePathIB(endpoint: .root)], minInterval: 0, maxInterval: 30,
            onReport: { reports.record($0) })
        return (device, controller, subscription, reports)
    }

    @Test("the device counts the subscriptions it serves (the --http metrics' matter_device_subscriptions)")
    func subscriptionsAreCounted() async throws {
        let fresh = try await VirtualDevices.start("on-off-light", in: directory, name: "unsubscribed")
        #expect(await fresh.subscriptionCount() == 0)
        let (device, controller, subscription, _) = try await commissionedAndSubscribed()
        #expect(await device.subscriptionCount() == 1)
        let second = try await controller.subscribe(
            node, paths: [AttributePathIB(endpoint: .root)], minInterval: 0, maxInterval: 30, onReport: { _ in })
        // A Subscribe without KeepSubscriptions replaces the subject's earlier one: still one served.
        #expect(await device.subscriptionCount() == 1)
        _ = (subscription, second)
    }

    @Test("AdministratorCommissioning: opening and revoking a window report WindowStatus and AdminFabricIndex")
    func windowChangesAreReported() async throws {
        let (device, controller, subscription, reports) = try await commissionedAndSubscribed()
        var seen = reports.count
        _ = try await controller.openCommissioningWindow(node)
        #expect(
            try await reports.wait(
                .administratorCommissioning, .AdministratorCommissioning.windowStatus, after: seen,
                matching: { $0 == .unsigned(1) }) != nil)
        #expect(
            try await reports.wait(
                .administratorCommissioning, .AdministratorCommissioning.adminFabricIndex, after: seen,
                matching: { $0 != .null }) != nil)

        seen = reports.count
        _ = try await controller.invoke(
            node, endpoint: .root, cluster: .administratorCommissioning,
            command: .AdministratorCommissioning.revokeCommissioning, timed: true)
        #expect(
            try await reports.wait(
                .administratorCommissioning, .AdministratorCommissioning.windowStatus, after: seen,
                matching: { $0 == .unsigned(0) }) != nil)
        #expect(
            try await reports.wait(
                .administratorCommissioning, .AdministratorCommissioning.adminFabricIndex, after: seen,
                matching: { $0 == .null }) != nil)
        await controller.cancel(subscription)
        await controller.stop()
        await device.stop()
    }

    @Test(
        "GeneralCommissioning, OperationalCredentials, AccessControl: a fail-safe rolled back reports each cluster")
    func failSafeRollbackIsReported() async throws {
        let (device, controller, subscription, reports) = try await commissionedAndSubscribed()
        var seen = reports.count
        let arm: (UInt64, UInt64) async throws -> Void = { expiry, breadcrumb in
            _ = try await controller.invoke(
                node, endpoint: .root, cluster: .generalCommissioning,
                command: .GeneralCommissioning.armFailSafe,
                fields: [
                    TLVElement(tag: .context(0), .unsigned(expiry)),
                    TLVElement(tag: .context(1), .unsigned(breadcrumb)),
                ])
        }
        try await arm(60, 7)
        #expect(
            try await reports.wait(
                .generalCommissioning, .GeneralCommissioning.breadcrumb, after: seen,
                matching: { $0 == .unsigned(7) }) != nil)

        // Disarming rolls back: the device announces the three clusters as wholes.
        seen = reports.count
        try await arm(0, 0)
        #expect(
            try await reports.wait(
                .generalCommissioning, .GeneralCommissioning.breadcrumb, after: seen,
                matching: { $0 == .unsigned(0) }) != nil)
        #expect(
            try await reports.wait(.operationalCredentials, .OperationalCredentials.fabrics, after: seen) != nil)
        #expect(
            try await reports.wait(
                .operationalCredentials, .OperationalCredentials.commissionedFabrics, after: seen,
                matching: { $0 == .unsigned(1) }) != nil)
        #expect(try await reports.wait(.accessControl, .AccessControl.acl, after: seen) != nil)
        await controller.cancel(subscription)
        await controller.stop()
        await device.stop()
    }
}
