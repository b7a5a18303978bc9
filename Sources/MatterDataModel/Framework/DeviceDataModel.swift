package import MatterClusters
package import MatterCore
package import MatterInteraction
package import MatterTLV
package import MatterTransport

/// The device side of the data model: endpoints of cluster servers behind the interaction engine's
/// ``MatterInteraction/DataModel`` protocol, with access control, persistence, timers, events and a
/// change log.
///
/// ```swift
/// let model = try DeviceDataModel(
///     endpoints: DevicePreset.dimmableLight.makeEndpoints(information: information),
///     configuration: DeviceDataModel.Configuration(context: node.context, store: store))
/// model.onStateChange = { print($0.text) }
/// let server = await InteractionServer.install(on: node, dataModel: model)
/// ```
///
/// Every endpoint gets a Descriptor cluster generated from the composition. Access checks go to
/// ``accessPolicy`` (by default an empty ``AccessControlList``: only a commissioning PASE session has
/// access). Not `Sendable`: it lives on the node's queue, where the interaction server calls it and
/// its timers (on the node's ``MatterCore/NodeScheduler``) fire; anything else (a CLI action, a test)
/// reaches it through a `NodeBound` in the node's isolation. A data model without a node (manual
/// clock) is used from one task.
package final class DeviceDataModel: DataModel {
    /// Platform services of a data model.
    package struct Configuration: Sendable {
        /// The clock transitions and countdowns follow (the node's clock).
        package var clock: any MatterClock
        /// The scheduler its timers run on: the node's. Nil: a manual one of its own on `clock`, which
        /// a test services with ``DeviceDataModel/serviceTimers()`` after moving a `ManualClock`.
        package var scheduler: NodeScheduler?
        /// Where non-volatile attribute values live.
        package var store: any AttributeStore
        /// Seed for the initial data versions; nil draws from the system's generator.
        package var randomSeed: UInt64?
        /// Event records kept for reads and subscriptions (oldest dropped first).
        package var eventCapacity: Int
        /// How much faster than real time the clusters' simulated processes run (transitions, cycles,
        /// rooms, coverings, scripts: every timer a cluster server makes); the protocol's timers (the
        /// root node's fail-safe and windows, MRP, subscriptions) keep real time. 1: real time.
        package var timeScale: Double = 1

        /// Services on `clock` with no node: timers run when a test calls
        /// ``DeviceDataModel/serviceTimers()``.
        package init(
            clock: any MatterClock = SystemClock(),
            store: any AttributeStore = InMemoryAttributeStore(), randomSeed: UInt64? = nil,
            eventCapacity: Int = 256
        ) {
            self.clock = clock
            self.scheduler = nil
            self.store = store
            self.randomSeed = randomSeed
            self.eventCapacity = eventCapacity
        }

        /// Services of a node: its clock, and timers on its scheduler.
        package init(
            context: NodeContext, store: any AttributeStore = InMemoryAttributeStore(), randomSeed: UInt64? = nil
        ) {
            self.init(clock: context.clock, store: store, randomSeed: randomSeed)
            scheduler = context.scheduler
        }
    }

    let configuration: Configuration
    /// Where its timers run: the node's scheduler, or a manual one of its own.
    let scheduler: NodeScheduler
    let log = Logger(label: "data-model")
    private var table: [EndpointID: Endpoint] = [:] {
        didSet { highestEndpointID = max(highestEndpointID, table.keys.max() ?? .root) }
    }
    /// The highest endpoint number this data model has held: a new dynamic endpoint takes the next one, so a
    /// removed endpoint's number is not given again while the device runs.
    package private(set) var highestEndpointID = EndpointID.root
    private var random: SeededRandom
    private var eventLog: EventLog
    private var started = false

    /// Decides every access check (spec 6.6.6). Replace it with the device's ACL, or keep the default
    /// ``AccessControlList`` and fill its entries.
    package var accessPolicy: any AccessPolicy
    /// The per-fabric group table the Groups servers of every endpoint share.
    package let groupTable = GroupTable()
    /// Receives one ``StateChange`` per reportable attribute change and per cluster note, on the
    /// node's queue.
    package var onStateChange: ((StateChange) -> Void)?
    /// Receives every event a cluster records (after it is in the event log), on the node's queue.
    package var onEventRecorded: ((RecordedEvent) -> Void)?
    /// The interaction server, set by `InteractionServer.install`.
    package weak var observer: (any DataModelObserver)?

    /// A data model serving `endpoints`; every cluster server starts (loads persisted values, applies
    /// start-up behaviour). Throws when two endpoints share a number or an endpoint already belongs to
    /// another data model. Create it before the node serves requests, or on the node's queue.
    package init(endpoints: [Endpoint], configuration: Configuration = Configuration()) throws(DataModelError) {
        self.configuration = configuration
        self.scheduler = configuration.scheduler ?? NodeScheduler(clock: configuration.clock, queue: nil)
        self.random = SeededRandom(seed: configuration.randomSeed)
        self.eventLog = EventLog(
            capacity: configuration.eventCapacity, store: configuration.store,
            bootTime: configuration.clock.nowMilliseconds())
        self.accessPolicy = AccessControlList()
        for endpoint in endpoints {
            guard table[endpoint.id] == nil else { throw .duplicateEndpoint(endpoint.id) }
            guard endpoint.dataModel == nil else { throw .endpointInUse(endpoint.id) }
            table[endpoint.id] = endpoint
        }
        for endpoint in endpoints { attach(endpoint) }
        highestEndpointID = table.keys.max() ?? .root  // (didSet does not run in init)
        restoreGroups()
        groupTable.onSave = { [unowned self] in saveGroups() }
        started = true
        for id in table.keys.sorted() {
            for server in table[id]?.clusters ?? [] { server.start() }
        }
    }

    private func attach(_ endpoint: Endpoint) {
        endpoint.dataModel = self
        if endpoint.cluster(.descriptor) == nil {
            endpoint.insert(DescriptorServer(tagList: !endpoint.tags.isEmpty))
        }
        for server in endpoint.clusters { server.dataVersion = UInt32(truncatingIfNeeded: random.next()) }
    }

    // MARK: - Composition

    /// The endpoints, ascending.
    package var allEndpoints: [Endpoint] { table.keys.sorted().compactMap { table[$0] } }

    /// The endpoint numbered `id`.
    package func endpoint(_ id: EndpointID) -> Endpoint? { table[id] }

    /// The server of type `T` on `endpoint`.
    package func cluster<T: ClusterServer>(_ type: T.Type = T.self, on endpoint: EndpointID) -> T? {
        table[endpoint]?.cluster(type)
    }

    /// The server of cluster `id` on `endpoint`.
    package func cluster(_ id: ClusterID, on endpoint: EndpointID) -> ClusterServer? { table[endpoint]?.cluster(id) }

    /// Adds an endpoint to the running model (its servers start; endpoint 0's PartsList reports it).
    package func add(_ endpoint: Endpoint) throws(DataModelError) {
        guard table[endpoint.id] == nil else { throw .duplicateEndpoint(endpoint.id) }
        guard endpoint.dataModel == nil else { throw .endpointInUse(endpoint.id) }
        table[endpoint.id] = endpoint
        attach(endpoint)
        for server in endpoint.clusters { server.start() }
        partsChanged()
    }

    /// Removes endpoint `id` from the running model (not endpoint 0): its scripts stop, its servers stop,
    /// and the PartsLists that listed it report the change. Returns it, or nil when there is none.
    @discardableResult
    package func remove(_ id: EndpointID) -> Endpoint? {
        guard id != .root, let endpoint = table[id] else { return nil }
        for (target, _) in scripts.all where target.endpoint == id { scripts.stop(target) }
        for server in endpoint.clusters { server.stop() }
        table[id] = nil
        endpoint.dataModel = nil
        partsChanged()
        return endpoint
    }

    /// Endpoint 0's PartsList and every Aggregator's changed (an endpoint came or went).
    private func partsChanged() {
        for endpoint in table.values where endpoint.id == .root || endpoint.isAggregator {
            descriptorChanged(on: endpoint, .Descriptor.partsList)
        }
        compositionChanged()
    }

    func serverAdded(_ server: ClusterServer, to endpoint: Endpoint) {
        server.dataVersion = UInt32(truncatingIfNeeded: random.next())
        guard started else { return }
        server.start()
        descriptorChanged(on: endpoint, .Descriptor.serverList)
        compositionChanged()
    }

    func serverRemoved(_ server: ClusterServer, from endpoint: Endpoint) {
        server.stop()
        descriptorChanged(on: endpoint, .Descriptor.serverList)
        compositionChanged()
    }

    /// BasicInformation's ConfigurationVersion counts composition changes after start.
    private func compositionChanged() {
        guard started else { return }
        cluster(BasicInformationServer.self, on: .root)?.configurationChanged()
    }

    func descriptorChanged(on endpoint: Endpoint, _ attribute: AttributeID) {
        endpoint.cluster(.descriptor)?.attributeChanged(attribute)
    }

    // MARK: - Timers, lifecycle

    /// A timer on the data model's scheduler for state of the node that no cluster server owns alone
    /// (the root node's fail-safe and commissioning windows); see ``DataModelTimer``.
    package func makeTimer(_ action: @escaping () -> Void) -> DataModelTimer {
        DataModelTimer(model: self, action: action)
    }

    /// The attribute scripts running on this data model (docs/SCRIPTS.md).
    package private(set) lazy var scripts = AttributeScripts(model: self)

    /// Runs the timers due at the clock's current time on the data model's scheduler (on a node: every
    /// timer of the node; tests call it after moving a `ManualClock`).
    package func serviceTimers() { scheduler.service() }

    /// The earliest time (clock ms) one of its timers is due, if any.
    package var nextTimerDeadline: UInt64? { scheduler.nextDeadline(ownedBy: self) }

    /// Stops every server (BasicInformation records ShutDown) and cancels all timers.
    package func shutDown() {
        scripts.stopAll()
        for endpoint in allEndpoints {
            for server in endpoint.clusters { server.stop() }
        }
        scheduler.cancelTimers(ownedBy: self)
        configuration.store.flush()
    }

    /// Forgets what a removed fabric had in the data model: its groups and, in each server, what
    /// belongs to it (``ClusterServer/fabricRemoved(_:)``: scenes).
    package func fabricRemoved(_ fabricIndex: UInt8) {
        groupTable.removeFabric(fabricIndex)
        for endpoint in allEndpoints {
            for server in endpoint.clusters { server.fabricRemoved(fabricIndex) }
        }
    }

    // MARK: - Changes, persistence, events

    static let groupsKey = "dm/groups"

    /// Loads the group table (every fabric's groups: spec 11.2, the Group Table is non-volatile).
    private func restoreGroups() {
        guard case .array(let fabrics)? = loadValue(Self.groupsKey) else { return }
        for fabric in fabrics {
            guard let index = fabric[context: 0]?.uint.flatMap(UInt8.init(exactly:)),
                case .array(let items)? = fabric[context: 1]?.value
            else { continue }
            let entries = items.compactMap { item -> GroupTable.Entry? in
                guard let group = item[context: 0]?.uint.flatMap(UInt16.init(exactly:)),
                    case .array(let members)? = item[context: 2]?.value
                else { return nil }
                let endpoints = members.compactMap { $0.uint.flatMap(UInt16.init(exactly:)).map(EndpointID.init) }
                return GroupTable.Entry(
                    groupID: GroupID(group), name: item[context: 1]?.string ?? "", endpoints: endpoints)
            }
            groupTable.restore(fabric: index, entries: entries)
        }
    }

    /// Stores the whole group table, durably (it changes only on Groups commands and fabric removal).
    private func saveGroups() {
        let fabrics = groupTable.fabrics.map { index in
            TLVElement(
                .structure([
                    TLVElement(tag: .context(0), .unsigned(UInt64(index))),
                    TLVElement(
                        tag: .context(1),
                        .array(
                            groupTable.entries(fabric: index).map { entry in
                                TLVElement(
                                    .structure([
                                        TLVElement(tag: .context(0), .unsigned(UInt64(entry.groupID.rawValue))),
                                        TLVElement(tag: .context(1), .utf8(entry.name)),
                                        TLVElement(
                                            tag: .context(2),
                                            .array(entry.endpoints.map { TLVElement(.unsigned(UInt64($0.rawValue))) })),
                                    ]))
                            })),
                ]))
        }
        saveValue(Self.groupsKey, fabrics.isEmpty ? nil : .array(fabrics))
    }

    func clusterChanged(_ server: ClusterServer, attributes: [AttributeID], quiet: Bool) {
        guard !quiet, let endpoint = server.endpoint, table[endpoint.id] === endpoint else { return }
        observer?.attributesChanged(
            attributes.map {
                AttributeChange(
                    endpoint: endpoint.id, cluster: server.id, attribute: $0, dataVersion: server.dataVersion)
            })
        guard onStateChange != nil else { return }
        for attribute in attributes {
            guard let value = try? server.read(attribute, context: .local),
                let text = server.changeDescription(of: attribute, value: value)
            else { continue }
            emit(StateChange(endpoint: endpoint.id, cluster: server.id, attribute: attribute, value: value, text: text))
        }
    }

    func emit(_ change: StateChange) { onStateChange?(change) }

    func loadValue(_ key: String) -> TLVValue? {
        do {
            guard let bytes = try configuration.store.load(key) else { return nil }
            return try TLVElement.decode(bytes).value
        } catch {
            log.warning("stored value \(key) unreadable, using the default: \(error)")
            return nil
        }
    }

    /// Stores `value` under `key`; `soon` lets the store write it behind (attribute values), the
    /// default writes it before returning (tables, identities).
    func saveValue(_ key: String, _ value: TLVValue?, soon: Bool = false) {
        do {
            let bytes = value.map { TLVElement($0).encoded() }
            if soon {
                try configuration.store.saveSoon(key, bytes)
            } else {
                try configuration.store.save(key, bytes)
            }
        } catch {
            log.warning("could not store \(key): \(error)")
        }
    }

    func recordEvent(_ path: ConcreteEventPath, priority: EventSchema.Priority, fields: TLVValue, fabricIndex: UInt8?)
        -> UInt64
    {
        let number = eventLog.append(
            path: path, priority: priority.rawValue, now: configuration.clock.nowMilliseconds(), data: fields,
            fabricIndex: fabricIndex)
        observer?.eventRecorded(path)
        onEventRecorded?(RecordedEvent(path: path, number: number, priority: priority, fields: fields))
        return number
    }

    // MARK: - DataModel

    package var endpoints: [EndpointID] { table.keys.sorted() }

    package func clusters(endpoint: EndpointID) -> [ClusterID] { table[endpoint]?.clusters.map(\.id) ?? [] }

    package func attributes(endpoint: EndpointID, cluster: ClusterID) -> [AttributeInfo] {
        guard let server = self.cluster(cluster, on: endpoint) else { return [] }
        var infos = server.attributes
        for global in [AttributeID.featureMap, .clusterRevision] where !infos.contains(where: { $0.id == global }) {
            infos.append(AttributeInfo(global))
        }
        return infos
    }

    package func acceptedCommands(endpoint: EndpointID, cluster: ClusterID) -> [CommandInfo] {
        self.cluster(cluster, on: endpoint)?.acceptedCommands ?? []
    }

    package func generatedCommands(endpoint: EndpointID, cluster: ClusterID) -> [CommandID] {
        self.cluster(cluster, on: endpoint)?.generatedCommands ?? []
    }

    package func events(endpoint: EndpointID, cluster: ClusterID) -> [EventInfo] {
        self.cluster(cluster, on: endpoint)?.events ?? []
    }

    package func dataVersion(endpoint: EndpointID, cluster: ClusterID) -> UInt32 {
        self.cluster(cluster, on: endpoint)?.dataVersion ?? 0
    }

    package func readAttribute(_ path: ConcreteAttributePath, context: InteractionContext) throws(StatusIB) -> TLVValue
    {
        guard let server = cluster(path.cluster, on: path.endpoint) else { throw StatusIB(.unsupportedCluster) }
        switch path.attribute {
        case .featureMap where !server.attributes.contains { $0.id == .featureMap }:
            return .unsigned(UInt64(server.featureMap))
        case .clusterRevision where !server.attributes.contains { $0.id == .clusterRevision }:
            return .unsigned(UInt64(server.revision))
        default:
            return try server.read(path.attribute, context: context)
        }
    }

    package func writeAttribute(_ path: ConcreteAttributePath, _ write: AttributeWrite, context: InteractionContext)
        throws(StatusIB)
    {
        guard let server = cluster(path.cluster, on: path.endpoint) else { throw StatusIB(.unsupportedCluster) }
        try server.write(path.attribute, write, context: context)
    }

    package func listWriteFinished(_ path: ConcreteAttributePath, context: InteractionContext) {
        cluster(path.cluster, on: path.endpoint)?.listWriteFinished(path.attribute, context: context)
    }

    package func invoke(_ path: ConcreteCommandPath, fields: TLVElement, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        guard let server = cluster(path.cluster, on: path.endpoint) else { throw StatusIB(.unsupportedCluster) }
        return try server.invoke(path.command, fields: CommandFields(fields), context: context)
    }

    package func checkAccess(
        _ subject: SubjectDescriptor, endpoint: EndpointID, cluster: ClusterID, privilege: Privilege
    ) -> Bool {
        let request = AccessRequest(
            endpoint: endpoint, cluster: cluster, privilege: privilege,
            deviceTypes: table[endpoint]?.deviceTypes.map(\.id) ?? [])
        return accessPolicy.allows(subject, request)
    }

    package func eventRecords(from number: UInt64) -> [EventRecord] { eventLog.records(from: number) }
}

extension InteractionContext {
    /// The context of the data model's own reads (change log): no peer, no fabric.
    static let local = InteractionContext(
        subject: SubjectDescriptor(authMode: .pase, fabricIndex: 0, subject: 0),
        session: .secure(localSessionID: 0))
}
