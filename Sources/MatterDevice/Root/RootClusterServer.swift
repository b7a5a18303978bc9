import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV

/// Puts one root-node cluster of `RootNode` into the data model's framework: metadata and operations
/// are the root node's; the framework keeps the data version and reports changes.
final class RootClusterServer: ClusterServer, @unchecked Sendable {
    unowned let root: RootNode

    init(_ id: ClusterID, root: RootNode) {
        self.root = root
        super.init(id: id, revision: ClusterRegistry.standard.cluster(id)?.revision ?? 1,
                   featureMap: RootNode.featureMaps[id] ?? 0)
        if id == .accessControl {
            root.onACLEvent = { [unowned self] fields, fabric in
                self.recordEvent(
                    .AccessControl.accessControlEntryChanged, priority: .info, fields: fields, fabricIndex: fabric)
            }
        }
    }

    /// The events the root node records: AccessControlEntryChanged, GeneralDiagnostics BootReason and
    /// HardwareFaultChange.
    override var events: [EventInfo] {
        let ids: [EventID] =
            switch id {
            case .accessControl: [.AccessControl.accessControlEntryChanged]
            case .generalDiagnostics: [.GeneralDiagnostics.hardwareFaultChange, .GeneralDiagnostics.bootReason]
            default: []
            }
        guard let schema = ClusterRegistry.standard.cluster(id) else { return [] }
        return ids.compactMap { schema.event($0).map(EventInfo.init) }
    }

    /// GeneralDiagnostics records BootReason at each boot (spec 11.12.8.4).
    override func start() {
        guard id == .generalDiagnostics else { return }
        recordEvent(
            .GeneralDiagnostics.bootReason, priority: .critical,
            fields: .structure([TLVElement(tag: .context(0), .unsigned(UInt64(root.configuration.bootReason)))]))
    }

    override var attributes: [AttributeInfo] {
        root.attributes(cluster: id).filter { $0.id.rawValue < 0xFFF8 }
    }

    override var acceptedCommands: [CommandInfo] { root.acceptedCommands(cluster: id) }

    /// The root node reports its own events (fabrics, windows); attribute dumps of certificates and
    /// breadcrumbs would only be noise in the change log.
    override func changeDescription(of attribute: AttributeID, value: TLVValue) -> String? { nil }
    override var generatedCommands: [CommandID] { root.generatedCommands(cluster: id) }

    override func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        try root.read(ConcreteAttributePath(endpoint: .root, cluster: id, attribute: attribute), context: context)
    }

    override func write(_ attribute: AttributeID, _ write: AttributeWrite, context: InteractionContext) throws(StatusIB) {
        try root.write(ConcreteAttributePath(endpoint: .root, cluster: id, attribute: attribute), write, context: context)
    }

    override func invoke(_ command: CommandID, fields: CommandFields, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        try root.invoke(ConcreteCommandPath(endpoint: .root, cluster: id, command: command), fields: fields.element,
                        context: context)
    }
}
