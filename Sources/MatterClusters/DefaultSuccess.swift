public import MatterTLV

/// The answer to a command that has no response command: a success status and no fields.
public struct DefaultSuccess: ClusterStruct {
    public init() {}

    public func encode(to writer: inout TLVWriter, tag: TLVTag) { writer.putStructure(tag: tag) { _ in } }

    public init(tlv element: TLVElement) throws(TLVError) {
        _ = try ClusterCoding.members(of: element, "DefaultSuccess")
    }
}
