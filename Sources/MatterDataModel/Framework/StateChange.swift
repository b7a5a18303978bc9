package import MatterCore
package import MatterTLV

/// One line of the device's change log: a reportable attribute change or a cluster's note (an effect,
/// a lock operation), for a CLI to print (`on-off 1 → on`, `level 1: 254`).
package struct StateChange: Hashable, Sendable, CustomStringConvertible {
    package var endpoint: EndpointID
    package var cluster: ClusterID
    /// The attribute that changed; nil for a note.
    package var attribute: AttributeID?
    /// Its new value; nil for a note.
    package var value: TLVValue?
    /// The human-readable line.
    package var text: String

    package init(endpoint: EndpointID, cluster: ClusterID, attribute: AttributeID?, value: TLVValue?, text: String) {
        self.endpoint = endpoint
        self.cluster = cluster
        self.attribute = attribute
        self.value = value
        self.text = text
    }

    package var description: String { text }
}
