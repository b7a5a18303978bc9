public import MatterTLV

/// A bitmap of a cluster (`Clusters.OnOff.OnOffControlBitmap`, a cluster's `Feature`) as an option set,
/// written as its unsigned raw value. Bits the bitmap does not name are kept as read: the specification
/// lets later revisions define them, and a receiver ignores what it does not know.
public protocol ClusterBitmap: OptionSet, Hashable, Sendable, TLVEncodable, TLVDecodable
where RawValue: FixedWidthInteger & UnsignedInteger & TLVEncodable & TLVDecodable {}

extension ClusterBitmap {
    public init(tlv element: TLVElement) throws(TLVError) {
        self.init(rawValue: try RawValue(tlv: element))
    }

    public func encode(to writer: inout TLVWriter, tag: TLVTag) { rawValue.encode(to: &writer, tag: tag) }
}
