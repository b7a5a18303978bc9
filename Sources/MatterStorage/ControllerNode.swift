public import MatterCore

/// A commissioned node as the controller remembers it (a row of the `nodes` table).
public struct ControllerNode: Sendable, Equatable {
    /// The node's operational node ID on the controller's fabric.
    public var nodeID: NodeID
    /// A user-given name, unique among nodes and groups (full Unicode case folding); nil for none.
    public var name: String?
    /// The room the user put the node in; nil for none.
    public var room: String?
    /// The vendor ID from the node's BasicInformation cluster.
    public var vendorID: VendorID
    /// The product ID from the node's BasicInformation cluster.
    public var productID: ProductID
    /// The device types of each endpoint, as read from the Descriptor cluster.
    public var deviceTypes: [NodeDeviceType]
    /// The last operational address the node answered on ("[fe80::1%eth0]:5540"), a hint for the next
    /// connection; nil when unknown.
    public var lastAddress: String?
    /// True when the node was commissioned with device attestation skipped.
    public var attestationSkipped: Bool
    /// When commissioning completed, in seconds since 1970-01-01 UTC.
    public var commissionedAt: Int64

    public init(
        nodeID: NodeID, name: String? = nil, room: String? = nil, vendorID: VendorID, productID: ProductID,
        deviceTypes: [NodeDeviceType] = [], lastAddress: String? = nil, attestationSkipped: Bool = false,
        commissionedAt: Int64 = currentUnixTime()
    ) {
        self.nodeID = nodeID
        self.name = name
        self.room = room
        self.vendorID = vendorID
        self.productID = productID
        self.deviceTypes = deviceTypes
        self.lastAddress = lastAddress
        self.attestationSkipped = attestationSkipped
        self.commissionedAt = commissionedAt
    }
}
