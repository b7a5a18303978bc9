import Dispatch
import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV
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
        let network = InMemoryNetwork(clock: clock ?? SystemClock())
        let a = network.makeEndpoint(queue: DispatchQueue(label: "controller"))
        let b = network.makeEndpoint(queue: DispatchQueue(label: "device"))
        var configuration = TransportNode.Configuration()
        configuration.usesDispatchTimers = clock == nil
        configuration.randomSeed = 11
        let controller = TransportNode(transport: a, clock: clock ?? SystemClock(), configuration: configuration)
        configuration.randomSeed = 12
        let device = TransportNode(transport: b, clock: clock ?? SystemClock(), configuration: configuration)
        await controller.start()
        await device.start()
        var random = SeededRandom(seed: 5)
        let i2r = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let r2i = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let challenge = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let controllerID = await controller.allocateSessionID()
        let deviceID = await device.allocateSessionID()
        let deviceKind =
            kind
            ?? .case(
                fabricIndex: 1, localNodeID: NodeID(0x1234), peerNodeID: NodeID(Fake.controllerNodeID),
                peerCATs: [])
        let controllerKind: SecureSessionKind =
            switch deviceKind {
            case .pase: .pase
            case .case(let fabric, let local, let peer, _):
                .case(fabricIndex: fabric, localNodeID: peer, peerNodeID: local, peerCATs: [])
            }
        let controllerSession = await controller.addSecureSession(
            SecureSessionParameters(
                kind: controllerKind, localSessionID: controllerID, peerSessionID: deviceID,
                keys: SessionKeys(i2r: i2r, r2i: r2i, attestationChallenge: challenge, isInitiator: true),
                peerAddress: b.address, peerMRP: .default, isInitiator: true))
        let deviceSession = await device.addSecureSession(
            SecureSessionParameters(
                kind: deviceKind, localSessionID: deviceID, peerSessionID: controllerID,
                keys: SessionKeys(i2r: i2r, r2i: r2i, attestationChallenge: challenge, isInitiator: false),
                peerAddress: a.address, peerMRP: .default, isInitiator: false))
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
    func settle() async {
        for _ in 0..<32 {
            await device.perform { _ in }
            await controller.perform { _ in }
        }
    }

    /// Sends raw bytes as the first message of a new IM exchange and returns the reply.
    func raw(_ opcode: InteractionOpcode, _ payload: [UInt8]) async throws -> ReceivedMessage {
        try await rawExchange(controller, session: controllerSession) { _, exchange in
            try await exchange.request(opcode: opcode.rawValue, payload: payload, timeout: 5_000)
        }
    }
}

extension TransportNode {
    /// Runs `body` in the node's isolation.
    func perform<T: Sendable>(_ body: @Sendable (isolated TransportNode) -> T) -> T { body(self) }
}

/// Runs `body` on a new IM exchange of `node`, closing it afterwards.
func rawExchange<T: Sendable>(
    _ node: isolated TransportNode, session: SessionID,
    _ body: @Sendable (isolated TransportNode, Exchange) async throws -> T
) async throws -> T {
    let exchange = try node.openExchange(on: session, protocolID: .interactionModel)
    defer { exchange.close() }
    return try await body(node, exchange)
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

/// Hex text (spaces allowed) as bytes; a typo gives no bytes, which fails the test using it.
func hex(_ text: String) -> [UInt8] { Hex.decode(text) ?? [] }
