public import MatterCore
public import MatterTLV

/// One line of the device's change log: a reportable attribute change or a cluster's note (an effect,
/// a lock operation), for a CLI to print (`on-off 1 → on`, `level 1: 254`).
public struct StateChange: Hashable, Sendable, CustomStringConvertible {
    public var endpoint: EndpointID
    public var cluster: ClusterID
    /// The attribute that changed; nil for a note.
    public var attribute: AttributeID?
    /// Its new value; nil for a note.
    public var value: TLVValue?
    /// The human-readable line.
    public var text: String

    public init(endpoint: EndpointID, cluster: ClusterID, attribute: AttributeID?, value: TLVValue?, text: String) {
        self.endpoint = endpoint
        self.cluster = cluster
        self.attribute = attribute
        self.value = value
        self.text = text
    }

    public var description: String { text }
}
