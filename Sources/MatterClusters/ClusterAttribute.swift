public import MatterCore
public import MatterTLV

/// An attribute of a cluster with the Swift type of its value (`Clusters.OnOff.Attributes.OnOff`).
public protocol ClusterAttribute: SendableMetatype {
    associatedtype Value: Hashable & Sendable
    static var cluster: ClusterID { get }
    static var id: AttributeID { get }
    /// Reads the value from `element`.
    static func decode(_ element: TLVElement) throws(TLVError) -> Value
    /// Writes `value` as one element tagged `tag`.
    static func encode(_ value: Value, to writer: inout TLVWriter, tag: TLVTag)
}

extension ClusterAttribute where Value: TLVEncodable & TLVDecodable {
    public static func decode(_ element: TLVElement) throws(TLVError) -> Value { try Value(tlv: element) }

    public static func encode(_ value: Value, to writer: inout TLVWriter, tag: TLVTag) {
        value.encode(to: &writer, tag: tag)
    }
}
