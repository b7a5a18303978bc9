import Dispatch
import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV
import MatterTestSupport
import MatterTransport
import Synchronization

/// A controller node and a device node on an in-memory network with a CASE session between them
/// (random keys, as if CASE had run), the device serving the fake data model, the controller holding
/// an interaction client.
struct Harness {
    let network: InMemoryNetwork
    let controller: TransportNode
    let device: TransportNode
    let controllerSession: SessionID
    let deviceSession: SessionID
    let server: InteractionServer
    let client: InteractionClient
    let model: FakeDataModel

    static func make(
        clock: ManualClock? = nil, privilege: Privilege = .administer, kind: SecureSessionKind? = nil,
        server serverConfiguration: InteractionServer.Configuration = InteractionServer.Configuration(),
        client clientConfiguration: InteractionClient.Configuration = InteractionClient.Configuration()
    ) async -> Harness {
        let pair = await SecureNodePair.make(
            clock: clock ?? SystemClock(), dispatchTimers: clock == nil, nodeSeeds: (11, 12), keySeed: 5,
            deviceKind: kind)
        let (network, controller, device) = (pair.network, pair.controller, pair.device)
        let (controllerSession, deviceSession) = (pair.controllerSession, pair.deviceSession)
        let model = FakeDataModel(controllerPrivilege: privilege)
        var serverConfiguration = serverConfiguration
        serverConfiguration.randomSeed = 3
        // Both run on their node's scheduler: manual (the test services it) when the clock is.
        let server = await InteractionServer.install(on: device, dataModel: model, configuration: serverConfiguration)
        let client = await InteractionClient.install(on: controller, configuration: clientConfiguration)
        return Harness(
            network: network, controller: controller, device: device, controllerSession: controllerSession,
            deviceSession: deviceSession, server: server, client: client, model: model)
    }

    func stop() async {
        await controller.stop()
        await device.stop()
    }

    /// Runs `body` on the device's queue (where the data model lives).
    func onDevice<T: Sendable>(_ body: @Sendable (FakeDataModel) -> T) async -> T {
        let model = self.model
        return await device.perform { _ in body(model) }
    }

    /// Lets everything already queued on both nodes run (in-memory deliveries are queued in order); each
    /// round lets one more message of a back-and-forth (a chunk and its StatusResponse) through.
    func settle() async { await SecureNodePair.settle(device, controller) }

    /// Sends raw bytes as the first message of a new IM exchange and returns the reply.
    func raw(_ opcode: InteractionOpcode, _ payload: [UInt8]) async throws -> ReceivedMessage {
        try await rawExchange(controller, session: controllerSession) { _, exchange in
            try await exchange.request(opcode: opcode.rawValue, payload: payload, timeout: 5_000)
        }
    }
}

/// Collects subscription reports across threads.
final class ReportCollector: Sendable {
    private let reports = Mutex<[SubscriptionReport]>([])
    private let endings = Mutex<[InteractionError]>([])

    var onReport: @Sendable (SubscriptionReport) -> Void { { [self] report in reports.withLock { $0.append(report) } } }
    var onEnded: @Sendable (InteractionError) -> Void { { [self] error in endings.withLock { $0.append(error) } } }
    var all: [SubscriptionReport] { reports.withLock { $0 } }
    var ended: [InteractionError] { endings.withLock { $0 } }
}

extension ConcreteAttributePath {
    init(_ endpoint: UInt16, _ cluster: ClusterID, _ attribute: AttributeID) {
        self.init(endpoint: EndpointID(endpoint), cluster: cluster, attribute: attribute)
    }
}

extension ConcreteCommandPath {
    init(_ endpoint: UInt16, _ cluster: ClusterID, _ command: CommandID) {
        self.init(endpoint: EndpointID(endpoint), cluster: cluster, command: command)
    }
}
