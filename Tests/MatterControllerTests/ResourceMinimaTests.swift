import Dispatch
import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterOnboarding
import MatterStorage
import MatterTLV
import MatterTestSupport
import Synchronization
import Testing

@testable import MatterController
@testable import MatterDevice
@testable import MatterTransport

/// The session minima of the SDK's TC_RR_1_1 against a real virtual device on loopback UDP: 5 fabrics,
/// 3 CASE sessions on each, each session holding one subscription to 3 paths; one change on the device
/// reaches all 15 subscriptions, none of which ends or is made again.
@Suite("Resource minima (TC_RR_1_1)")
struct ResourceMinimaTests {
    /// Reports per subscription ID, across threads.
    final class Reports: Sendable {
        private let state = Mutex<(reports: [UInt32: [SubscriptionReport]], ended: Int)>(([:], 0))

        var onReport: @Sendable (SubscriptionReport) -> Void {
            { [self] report in state.withLock { $0.reports[report.subscriptionID, default: []].append(report) } }
        }
        var onEnded: @Sendable (InteractionError) -> Void { { [self] _ in state.withLock { $0.ended += 1 } } }
        var ended: Int { state.withLock { $0.ended } }

        /// The subscriptions (by ID) that saw OnOff on endpoint 1 become `value` after priming.
        func saw(onOff value: Bool) -> Set<UInt32> {
            let path = ConcreteAttributePath(endpoint: EndpointID(1), cluster: .onOff, attribute: .OnOff.onOff)
            return state.withLock { state in
                Set(
                    state.reports.filter { _, reports in
                        reports.contains { $0.result.report(for: path)?.value == .bool(value) }
                    }.keys)
            }
        }
    }

    static let fabrics = 5
    static let sessionsPerFabric = 3

    func controller(_ directory: TemporaryDirectory) async throws -> Controller {
        let store = try ControllerStore(path: directory.storePath)
        let endpoint = try UDPEndpoint(port: 0, queue: DispatchQueue(label: "test.rr-controller"))
        let configuration = ControllerConfiguration(
            store: store, transport: endpoint, discovery: .none, trustStore: try DefaultPAATrustStore.make())
        return try await Controller.open(configuration)
    }

    @Test("5 fabrics × 3 CASE sessions × 1 subscription (3 paths): one change reaches all 15")
    func fiveFabricsThreeSessionsEach() async throws {
        let deviceDirectory = try TemporaryDirectory()
        let device = try await VirtualDevices.start("on-off-light", in: deviceDirectory, name: "rr")
        // Fabric 1 commissions the device; each further fabric joins through a window fabric 1 opens.
        var directories: [TemporaryDirectory] = []
        var controllers: [(controller: Controller, node: NodeID)] = []
        for index in 0..<Self.fabrics {
            let directory = try TemporaryDirectory()
            directories.append(directory)
            let controller = try await controller(directory)
            let node = NodeID(UInt64(0x100 + index))
            var passcode: UInt32?
            if let first = controllers.first {
                passcode = try await first.controller.openCommissioningWindow(first.node).payload.passcode
            }
            _ = try await controller.commission(device.request(nodeID: node, passcode: passcode))
            controllers.append((controller, node))
        }
        #expect(await device.fabrics().count == Self.fabrics)

        // Three CASE sessions per fabric, each with a subscription to three paths. KeepSubscriptions:
        // the three sessions of a fabric share one controller node ID, so a subscription made without it
        // would end that subject's others (TC_RR_1_1 uses three controllers with their own node IDs).
        let paths = [
            AttributePathIB(ConcreteAttributePath(endpoint: EndpointID(1), cluster: .onOff, attribute: .OnOff.onOff)),
            AttributePathIB(
                ConcreteAttributePath(
                    endpoint: .root, cluster: .basicInformation, attribute: .BasicInformation.nodeLabel)),
            AttributePathIB(
                ConcreteAttributePath(endpoint: EndpointID(1), cluster: .identify, attribute: .Identify.identifyTime)),
        ]
        let reports = Reports()
        var subscriptions: [(controller: Controller, subscription: ClientSubscription)] = []
        for (controller, node) in controllers {
            for _ in 0..<Self.sessionsPerFabric {
                let session = try await controller.establishCASE(
                    node, candidates: try await controller.operationalAddresses(node))
                let subscription = try await controller.client.subscribe(
                    SubscribeRequestMessage(
                        keepSubscriptions: true, minIntervalFloor: 0, maxIntervalCeiling: 60,
                        attributeRequests: paths),
                    session: session.session, onReport: reports.onReport, onEnded: reports.onEnded)
                #expect(subscription.priming.attributes.count == 3)
                subscriptions.append((controller, subscription))
            }
        }
        let count = Self.fabrics * Self.sessionsPerFabric
        #expect(Set(subscriptions.map(\.subscription.id)).count == count)
        // 15 sessions, 3 on each fabric, all on the device at once (plus the ones commissioning left).
        let perFabric: [UInt8: Int] = await device.node.perform { node in
            var counts: [UInt8: Int] = [:]
            for session in node.secureSessions.values {
                if case .case(let fabric, _, _, _) = session.parameters.kind { counts[fabric, default: 0] += 1 }
            }
            return counts
        }
        #expect(perFabric.count == Self.fabrics)
        #expect(perFabric.values.allSatisfy { $0 >= Self.sessionsPerFabric })
        #expect(perFabric.values.reduce(0, +) >= count)

        // One change on the device, as its own button makes it.
        let model = device.dataModel
        await device.node.perform { node in
            try? model.value(in: node).cluster(OnOffServer.self, on: EndpointID(1))?.setLocally(
                .OnOff.onOff, .bool(true))
        }
        let expected = Set(subscriptions.map(\.subscription.id))
        for _ in 0..<200 where reports.saw(onOff: true) != expected {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(reports.saw(onOff: true) == expected)
        #expect(reports.ended == 0)

        for (controller, subscription) in subscriptions { await controller.cancel(subscription) }
        for (controller, _) in controllers { await controller.stop() }
        await device.stop()
        _ = directories
    }
}
