import Dispatch
import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import MatterTestSupport
import MatterTransport
import Synchronization

/// The controller's operational node ID in every test.
let controllerNodeID: UInt64 = 112233

extension InteractionContext {
    /// A CASE subject on `fabric`.
    static func caseSubject(fabric: UInt8 = 1, node: UInt64 = controllerNodeID, cats: [UInt32] = []) -> Self {
        InteractionContext(
            subject: SubjectDescriptor(authMode: .case, fabricIndex: fabric, subject: node, cats: cats),
            session: .secure(localSessionID: 1))
    }
}

/// A CommandFields structure from context-tagged members.
func fields(_ members: [UInt8: TLVValue] = [:]) -> TLVElement {
    TLVElement(
        .structure(members.keys.sorted().compactMap { tag in members[tag].map { TLVElement(tag: .context(tag), $0) } }))
}

/// A data model of a preset on a manual clock, driven directly (no network): commands and writes
/// skip the engine's existence/access/timing checks, which the interaction tests cover.
final class Bench {
    let clock: ManualClock
    let store: InMemoryAttributeStore
    let model: DeviceDataModel
    let observer = RecordingObserver()
    private(set) var log: [String] = []

    init(
        _ preset: DevicePreset = .dimmableLight, store: InMemoryAttributeStore = InMemoryAttributeStore(),
        clock: ManualClock = ManualClock(startingAt: 10_000), timeScale: Double = 1
    ) throws {
        self.clock = clock
        self.store = store
        var configuration = DeviceDataModel.Configuration(clock: clock, store: store, randomSeed: 7)
        configuration.timeScale = timeScale
        model = try DeviceDataModel(endpoints: preset.makeEndpoints(), configuration: configuration)
        model.observer = observer
        model.onStateChange = { [weak self] change in self?.log.append(change.text) }
    }

    /// A new data model over the same store: the device restarted.
    func reboot(_ preset: DevicePreset = .dimmableLight) throws -> Bench {
        model.shutDown()
        return try Bench(preset, store: store, clock: clock)
    }

    func read(_ endpoint: UInt16, _ cluster: ClusterID, _ attribute: AttributeID) throws(StatusIB) -> TLVValue {
        try model.readAttribute(
            ConcreteAttributePath(endpoint: EndpointID(endpoint), cluster: cluster, attribute: attribute),
            context: .caseSubject())
    }

    /// The attribute's value, or nil when the read fails.
    func value(_ endpoint: UInt16, _ cluster: ClusterID, _ attribute: AttributeID) -> TLVValue? {
        try? read(endpoint, cluster, attribute)
    }

    /// True when the cluster's accepted commands (its AcceptedCommandList) hold `command`.
    func accepts(_ endpoint: UInt16, _ cluster: ClusterID, _ command: CommandID) -> Bool {
        model.cluster(cluster, on: EndpointID(endpoint))?.acceptedCommands.contains { $0.id == command } ?? false
    }

    func write(
        _ endpoint: UInt16, _ cluster: ClusterID, _ attribute: AttributeID, _ value: TLVValue,
        context: InteractionContext = .caseSubject()
    ) -> IMStatus {
        do throws(StatusIB) {
            try model.writeAttribute(
                ConcreteAttributePath(endpoint: EndpointID(endpoint), cluster: cluster, attribute: attribute),
                .replace(value), context: context)
            return .success
        } catch {
            return error.status
        }
    }

    @discardableResult
    func invoke(
        _ endpoint: UInt16, _ cluster: ClusterID, _ command: CommandID, _ members: [UInt8: TLVValue] = [:],
        context: InteractionContext = .caseSubject()
    ) throws(StatusIB) -> CommandResponse? {
        try model.invoke(
            ConcreteCommandPath(endpoint: EndpointID(endpoint), cluster: cluster, command: command),
            fields: fields(members), context: context)
    }

    /// The status an invoke answers with (SUCCESS for a response command).
    func status(
        _ endpoint: UInt16, _ cluster: ClusterID, _ command: CommandID, _ members: [UInt8: TLVValue] = [:],
        context: InteractionContext = .caseSubject()
    ) -> IMStatus {
        do throws(StatusIB) {
            try invoke(endpoint, cluster, command, members, context: context)
            return .success
        } catch {
            return error.status
        }
    }

    /// The whole status an invoke fails with (nil on success), cluster status included.
    func statusIB(
        _ endpoint: UInt16, _ cluster: ClusterID, _ command: CommandID, _ members: [UInt8: TLVValue] = [:]
    ) -> StatusIB? {
        do throws(StatusIB) {
            try invoke(endpoint, cluster, command, members)
            return nil
        } catch {
            return error
        }
    }

    /// Moves the clock and runs the due timers.
    func advance(_ milliseconds: UInt64) {
        clock.advance(by: milliseconds)
        model.serviceTimers()
    }

    var onOff: OnOffServer? { model.cluster(OnOffServer.self, on: EndpointID(1)) }
    var level: LevelControlServer? { model.cluster(LevelControlServer.self, on: EndpointID(1)) }
    var color: ColorControlServer? { model.cluster(ColorControlServer.self, on: EndpointID(1)) }
    var currentLevel: UInt8? { level?.currentLevel }
}

/// Records the data model's change notifications.
final class RecordingObserver: DataModelObserver {
    private(set) var changes: [AttributeChange] = []
    private(set) var eventNotifications = 0

    func attributesChanged(_ changes: [AttributeChange]) { self.changes += changes }
    func eventsRecorded() { eventNotifications += 1 }

    func reset() {
        changes = []
        eventNotifications = 0
    }

    /// Reported changes of one attribute.
    func count(_ cluster: ClusterID, _ attribute: AttributeID) -> Int {
        changes.filter { $0.cluster == cluster && $0.attribute == attribute }.count
    }
}

// MARK: - End to end

/// A controller node and a device node on an in-memory network with a CASE session between them
/// (random keys, as if CASE had run); the device serves a preset's ``DeviceDataModel`` whose ACL
/// grants the controller `privilege` on fabric 1. Everything runs on one manual clock.
struct Harness {
    let network: InMemoryNetwork
    let controller: TransportNode
    let device: TransportNode
    let controllerSession: SessionID
    let server: InteractionServer
    let client: InteractionClient
    /// The device's data model, reached on the device node (``onDevice(_:)``).
    let model: NodeBound<DeviceDataModel>
    let clock: ManualClock

    static func make(
        _ preset: DevicePreset = .dimmableLight, privilege: Privilege? = .administer,
        store: InMemoryAttributeStore = InMemoryAttributeStore()
    ) async throws -> Harness {
        let clock = ManualClock(startingAt: 100_000)
        let pair = await SecureNodePair.make(clock: clock, dispatchTimers: false, nodeSeeds: (21, 22), keySeed: 9)
        let (network, controller, device) = (pair.network, pair.controller, pair.device)
        let controllerSession = pair.controllerSession
        // The data model and its server are made on the device node and stay there.
        let built: Result<(NodeBound<DeviceDataModel>, InteractionServer), any Error> = await device.perform {
            node in
            do {
                let model = try DeviceDataModel(
                    endpoints: preset.makeEndpoints(),
                    configuration: DeviceDataModel.Configuration(clock: clock, store: store, randomSeed: 5))
                let acl = AccessControlList()
                if let privilege {
                    acl.entries = [
                        AccessControlEntry(
                            fabricIndex: 1, privilege: privilege, authMode: .case, subjects: [controllerNodeID])
                    ]
                }
                model.accessPolicy = acl
                var serverConfiguration = InteractionServer.Configuration()
                serverConfiguration.randomSeed = 3
                let server = InteractionServer.install(on: node, dataModel: model, configuration: serverConfiguration)
                return .success((NodeBound(model, on: node), server))
            } catch {
                return .failure(error)
            }
        }
        let (model, server) = try built.get()
        let client = await InteractionClient.install(on: controller)
        return Harness(
            network: network, controller: controller, device: device, controllerSession: controllerSession,
            server: server, client: client, model: model, clock: clock)
    }

    func stop() async {
        await controller.stop()
        await device.stop()
    }

    /// Runs `body` on the device's queue, where the data model lives.
    func onDevice<T: Sendable>(_ body: @Sendable (DeviceDataModel) -> T) async -> T {
        let model = self.model
        return await device.perform { node in body(model.value(in: node)) }
    }

    /// Lets everything already queued on both nodes run.
    func settle() async { await SecureNodePair.settle(device, controller) }

    /// Moves the clock, runs the data model's and the interaction server's timers, and lets the
    /// resulting reports through.
    func tick(by milliseconds: UInt64) async {
        clock.advance(by: milliseconds)
        await onDevice { $0.serviceTimers() }
        await server.serviceTimers()
        await settle()
    }

    func read(_ paths: [AttributePathIB]) async throws -> ReadResult {
        try await client.read(paths, session: controllerSession)
    }

    func read(_ endpoint: UInt16, _ cluster: ClusterID, _ attribute: AttributeID) async throws -> AttributeReport? {
        let path = ConcreteAttributePath(endpoint: EndpointID(endpoint), cluster: cluster, attribute: attribute)
        return try await read([AttributePathIB(path)]).report(for: path)
    }

    func invoke(
        _ endpoint: UInt16, _ cluster: ClusterID, _ command: CommandID, _ members: [UInt8: TLVValue] = [:],
        timed: Bool = false
    ) async throws -> InvokeResult {
        let request = CommandRequest(
            path: ConcreteCommandPath(endpoint: EndpointID(endpoint), cluster: cluster, command: command),
            fields: fields(members).value)
        return try await client.invoke(request, session: controllerSession, timedTimeout: timed ? 10_000 : nil)
    }

    func write(_ endpoint: UInt16, _ cluster: ClusterID, _ attribute: AttributeID, _ value: TLVValue) async throws
        -> StatusIB?
    {
        let path = ConcreteAttributePath(endpoint: EndpointID(endpoint), cluster: cluster, attribute: attribute)
        return try await client.write([WriteItem(path: path, value: value)], session: controllerSession).first?.status
    }

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

    var onReport: @Sendable (SubscriptionReport) -> Void { { [self] report in reports.withLock { $0.append(report) } } }
    var all: [SubscriptionReport] { reports.withLock { $0 } }
}
