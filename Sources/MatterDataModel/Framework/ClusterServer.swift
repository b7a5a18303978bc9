package import MatterClusters
public import MatterCore
public import MatterInteraction
public import MatterTLV

/// One cluster instance on one endpoint: what it has (attributes, commands, events, features), what
/// it does (`read`, `write`, `invoke`), and the bookkeeping every cluster shares (data version, change
/// notification, persistence, timers, events).
///
/// An open base class rather than a protocol: the shared part is state (the data version, the link to
/// the endpoint and the data model) plus services built on it, which a protocol would make every
/// cluster store and wire again. A subclass overrides the description and the operations it supports
/// and calls ``attributesChanged(_:quiet:)`` whenever a value changes.
///
/// ```swift
/// final class BreadcrumbServer: ClusterServer {
///     var breadcrumb: UInt64 = 0
///     init() { super.init(id: .generalCommissioning, revision: 2) }
///     override var attributes: [AttributeInfo] {
///         [AttributeInfo(.GeneralCommissioning.breadcrumb, write: .administer)]
///     }
///     override func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
///         guard attribute == .GeneralCommissioning.breadcrumb else { throw StatusIB(.unsupportedAttribute) }
///         return .unsigned(breadcrumb)
///     }
///     override func write(_ attribute: AttributeID, _ write: AttributeWrite, context: InteractionContext)
///         throws(StatusIB) {
///         breadcrumb = try WriteValue(write).unsigned(UInt64.self)
///         attributesChanged([attribute])
///     }
/// }
/// ```
///
/// FeatureMap (0xFFFC) and ClusterRevision (0xFFFD) are served by the data model from ``featureMap``
/// and ``revision``; the interaction engine adds AttributeList, AcceptedCommandList and
/// GeneratedCommandList. Not `Sendable`: it belongs to its data model and runs where that runs (the
/// node's queue).
open class ClusterServer {
    /// The cluster's ID.
    package let id: ClusterID
    /// Its ClusterRevision.
    package let revision: UInt16
    /// Its FeatureMap.
    package let featureMap: UInt32
    /// The cluster instance's data version: incremented on every attribute change.
    package internal(set) var dataVersion: UInt32 = 0
    /// The endpoint serving this cluster (nil until added to one).
    package internal(set) weak var endpoint: Endpoint?
    let log: Logger

    /// A cluster server; `featureMap` as the FeatureMap attribute reports it.
    package init(id: ClusterID, revision: UInt16, featureMap: UInt32 = 0) {
        self.id = id
        self.revision = revision
        self.featureMap = featureMap
        self.log = Logger(label: "data-model")
    }

    // MARK: - What subclasses describe

    /// The cluster-specific attributes in report order, without the global ones (the data model adds
    /// FeatureMap and ClusterRevision, the engine the three global lists).
    open var attributes: [AttributeInfo] { [] }
    /// Commands the server accepts.
    open var acceptedCommands: [CommandInfo] { [] }
    /// Response commands the server sends.
    open var generatedCommands: [CommandID] { [] }
    /// Events the server records.
    open var events: [EventInfo] { [] }

    /// Called once when the server joins a data model (at boot, or when added later): load persisted
    /// values, apply start-up behaviour, record boot events. Timers may be started from here on.
    open func start() {}

    /// Called when the data model shuts down: stop what runs. Timers are cancelled afterwards anyway.
    open func stop() {}

    /// The fabric `fabricIndex` was removed from the node: forget what belongs to it (its scenes).
    open func fabricRemoved(_ fabricIndex: UInt8) {}

    // MARK: - Operations (the engine has checked existence, access and timing)

    /// Reads one of ``attributes``.
    open func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        throw StatusIB(.unsupportedAttribute)
    }

    /// Writes one of the writable ``attributes``. Decode with ``WriteValue``, validate, apply, then call
    /// ``attributesChanged(_:quiet:)`` if the value changed.
    open func write(_ attribute: AttributeID, _ write: AttributeWrite, context: InteractionContext) throws(StatusIB) {
        throw StatusIB(.unsupportedWrite)
    }

    /// Sets `attribute` as the physical world would (a control plane: a hand on the switch, a jammed
    /// bolt), including attributes a controller cannot write. `value` is already typed by the schema;
    /// the default applies it through ``write(_:_:context:)`` with the node's own authority, so only
    /// writable attributes change; clusters override it for the state they own. Throws and changes
    /// nothing on a bad value.
    open func setLocally(_ attribute: AttributeID, _ value: TLVValue) throws(StatusIB) {
        try write(attribute, .replace(value), context: .local)
    }

    /// A write interaction that touched the list `attribute` ended (after its last chunk).
    open func listWriteFinished(_ attribute: AttributeID, context: InteractionContext) {}

    /// Invokes one of ``acceptedCommands``: nil answers SUCCESS, a response command answers with it,
    /// a thrown status answers with that status.
    open func invoke(_ command: CommandID, fields: CommandFields, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        throw StatusIB(.unsupportedCommand)
    }

    /// The change-log line for a reportable change of `attribute` (`on-off 1 → on`), nil for none.
    /// The default names the cluster and attribute from the standard schemas and formats the value.
    open func changeDescription(of attribute: AttributeID, value: TLVValue) -> String? {
        guard let schema = ClusterRegistry.standard.cluster(id), let attributeSchema = schema.attribute(attribute)
        else {
            return "\(id) \(endpointID.rawValue) \(attribute): \(value)"
        }
        return "\(schema.cliName) \(endpointID.rawValue) \(attributeSchema.cliName): \(attributeSchema.format(value))"
    }

    // MARK: - Services for subclasses

    /// The endpoint's number (0 before the server is added to an endpoint).
    package var endpointID: EndpointID { endpoint?.id ?? EndpointID(0) }

    /// The data model this server belongs to, once its endpoint is part of one.
    package var dataModel: DeviceDataModel? { endpoint?.dataModel }

    /// The data model's current time in milliseconds (inside a timer's action: the time it was due).
    package var now: UInt64 { dataModel?.scheduler.now ?? 0 }

    /// Records that attributes changed: increments the data version and, unless `quiet`, tells the
    /// interaction server (subscriptions report them) and the change log. A quiet change (a step of a
    /// transition, a countdown tick) is visible to reads and bumps the version but is not reported.
    package func attributesChanged(_ attributes: [AttributeID], quiet: Bool = false) {
        dataVersion &+= 1
        dataModel?.clusterChanged(self, attributes: attributes, quiet: quiet)
    }

    /// Records that the cluster changed as a whole (several attributes, which ones not said): every
    /// attribute it serves is marked, so subscriptions report each of them (see
    /// ``attributesChanged(_:quiet:)``).
    package func allAttributesChanged(quiet: Bool = false) {
        attributesChanged(attributes.map(\.id), quiet: quiet)
    }

    /// Records that one attribute changed (see ``attributesChanged(_:quiet:)``).
    package func attributeChanged(_ attribute: AttributeID, quiet: Bool = false) {
        attributesChanged([attribute], quiet: quiet)
    }

    /// Adds a free-form line to the change log (an effect, a lock operation).
    package func note(_ text: String) {
        dataModel?.emit(StateChange(endpoint: endpointID, cluster: id, attribute: nil, value: nil, text: text))
    }

    /// The server of type `T` on the same endpoint.
    package func sibling<T: ClusterServer>(_ type: T.Type = T.self) -> T? { endpoint?.cluster(type) }

    /// A timer whose action runs on the node's queue; start it with ``DataModelTimer/start(after:)``.
    /// The action should capture `self` weakly or unowned.
    package func makeTimer(_ action: @escaping () -> Void) -> DataModelTimer {
        DataModelTimer(owner: self, action: action)
    }

    /// The persisted value of `attribute` on this cluster instance, if any.
    package func loadPersisted(_ attribute: AttributeID) -> TLVValue? {
        dataModel?.loadValue(Self.storageKey(endpointID, id, attribute))
    }

    /// Persists `value` for `attribute` (nil forgets it); survives a restart with the same store.
    /// Written behind: the store may write it a moment later, coalesced with other changes, and
    /// writes it before the device stops (``AttributeStore/saveSoon(_:_:)``).
    package func persist(_ attribute: AttributeID, _ value: TLVValue?) {
        dataModel?.saveValue(Self.storageKey(endpointID, id, attribute), value, soon: true)
    }

    /// The persisted value stored under `name` for this cluster instance (state that is no
    /// attribute, such as a lock's users), if any.
    package func loadPersisted(named name: String) -> TLVValue? {
        dataModel?.loadValue(Self.storageKey(endpointID, id, name: name))
    }

    /// Persists `value` under `name` for this cluster instance (nil forgets it), durably before it
    /// returns (users, credentials and other tables).
    package func persist(named name: String, _ value: TLVValue?) {
        dataModel?.saveValue(Self.storageKey(endpointID, id, name: name), value)
    }

    /// Records an event of this cluster (`fields` is its structure); returns its event number.
    @discardableResult
    package func recordEvent(
        _ event: EventID, priority: EventSchema.Priority, fields: TLVValue = .structure([]),
        fabricIndex: UInt8? = nil
    ) -> UInt64? {
        dataModel?.recordEvent(
            ConcreteEventPath(endpoint: endpointID, cluster: id, event: event), priority: priority,
            fields: fields, fabricIndex: fabricIndex)
    }

    /// The infos of the attributes `ids` from `schema`, in that order.
    package static func attributeInfos(_ schema: ClusterSchema, _ ids: [AttributeID]) -> [AttributeInfo] {
        ids.compactMap { id in schema.attribute(id).map(AttributeInfo.init) }
    }

    /// The infos of the commands `ids` from `schema`, in that order.
    package static func commandInfos(_ schema: ClusterSchema, _ ids: [CommandID]) -> [CommandInfo] {
        ids.compactMap { id in schema.command(id).map(CommandInfo.init) }
    }

    /// The store key of an attribute value: `<endpoint>/<cluster>/<attribute>` in hexadecimal.
    package static func storageKey(_ endpoint: EndpointID, _ cluster: ClusterID, _ attribute: AttributeID) -> String {
        "\(String(endpoint.rawValue, radix: 16))/\(hex4(cluster.rawValue))/\(hex4(attribute.rawValue))"
    }

    /// The store key of named state: `<endpoint>/<cluster>/<name>`.
    package static func storageKey(_ endpoint: EndpointID, _ cluster: ClusterID, name: String) -> String {
        "\(String(endpoint.rawValue, radix: 16))/\(hex4(cluster.rawValue))/\(name)"
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return digits.count >= 4 ? digits : String(repeating: "0", count: 4 - digits.count) + digits
    }
}
