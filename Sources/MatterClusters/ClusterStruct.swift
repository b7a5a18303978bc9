public import MatterTLV

/// A structure of a cluster (`Clusters.Descriptor.DeviceTypeStruct`), written as a TLV structure of
/// context-tagged fields. Reading refuses a missing mandatory field and a field of the wrong type or value,
/// naming the field; it skips fields it does not know (a later revision's).
public protocol ClusterStruct: Hashable, Sendable, TLVEncodable, TLVDecodable {}
