package import MatterClusters
package import MatterCore
package import MatterTLV

/// The device's data model as the interaction engine sees it: what exists, what it takes to access it,
/// and the operations themselves. The engine expands wildcards, checks existence, access, timing and
/// data versions (interaction-model.md §5) before it calls the operations, so an implementation only
/// validates values and applies them.
///
/// Every method is called on the node's queue (confine the implementation to it, hence `Sendable`).
/// Operations fail one path by throwing a ``StatusIB`` (`throw StatusIB(.constraintError)`,
/// `throw .cluster(2)`).
///
/// The global attributes AttributeList (0xFFFB), AcceptedCommandList (0xFFF9) and
/// GeneratedCommandList (0xFFF8) are served by the engine from ``attributes(endpoint:cluster:)``,
/// ``acceptedCommands(endpoint:cluster:)`` and ``generatedCommands(endpoint:cluster:)`` unless the data
/// model lists them itself; FeatureMap and ClusterRevision are the data model's.
package protocol DataModel: AnyObject {
    /// Endpoints, ascending.
    var endpoints: [EndpointID] { get }
    /// Server clusters on `endpoint`, ascending; empty for an unknown endpoint.
    func clusters(endpoint: EndpointID) -> [ClusterID]
    /// Attributes of a cluster instance, in the order wildcard reads report them.
    func attributes(endpoint: EndpointID, cluster: ClusterID) -> [AttributeInfo]
    /// Commands the cluster instance accepts.
    func acceptedCommands(endpoint: EndpointID, cluster: ClusterID) -> [CommandInfo]
    /// Response commands the cluster instance sends.
    func generatedCommands(endpoint: EndpointID, cluster: ClusterID) -> [CommandID]
    /// Events of the cluster instance.
    func events(endpoint: EndpointID, cluster: ClusterID) -> [EventInfo]
    /// The cluster instance's data version (incremented on every attribute change).
    func dataVersion(endpoint: EndpointID, cluster: ClusterID) -> UInt32

    /// Reads an attribute that exists and that the subject may read. For fabric-scoped lists, return
    /// only the accessing fabric's entries when `context.isFabricFiltered`, and omit other fabrics'
    /// fabric-sensitive fields otherwise.
    func readAttribute(_ path: ConcreteAttributePath, context: InteractionContext) throws(StatusIB) -> TLVValue
    /// Writes an attribute that exists, is writable and that the subject may write.
    func writeAttribute(_ path: ConcreteAttributePath, _ write: AttributeWrite, context: InteractionContext)
        throws(StatusIB)
    /// Called once when a write interaction that touched the list `path` ends (after its last chunk),
    /// so a list written as replace-all plus appends can be validated or committed as a whole.
    func listWriteFinished(_ path: ConcreteAttributePath, context: InteractionContext)
    /// Invokes a command that exists and that the subject may invoke. Return nil for a plain SUCCESS
    /// status, a ``CommandResponse`` for a response command; throw for an error status.
    func invoke(_ path: ConcreteCommandPath, fields: TLVElement, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?

    /// The access-control check (spec 6.6.6): may `subject` exercise `privilege` on this cluster
    /// instance? Called for endpoints and clusters that may not exist. A commissioning PASE session has
    /// implicit Administer; everything else goes through the ACL of the subject's fabric.
    func checkAccess(
        _ subject: SubjectDescriptor, endpoint: EndpointID, cluster: ClusterID,
        privilege: Privilege
    ) -> Bool

    /// Event records numbered `number` or higher, oldest first.
    func eventRecords(from number: UInt64) -> [EventRecord]

    /// Where changes are reported. Set by the interaction server; hold it weakly.
    var observer: (any DataModelObserver)? { get set }
}

extension DataModel {
    package func events(endpoint: EndpointID, cluster: ClusterID) -> [EventInfo] { [] }
    package func eventRecords(from number: UInt64) -> [EventRecord] { [] }
    package func listWriteFinished(_ path: ConcreteAttributePath, context: InteractionContext) {}
    package func generatedCommands(endpoint: EndpointID, cluster: ClusterID) -> [CommandID] { [] }
}
