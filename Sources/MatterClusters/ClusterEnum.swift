public import MatterTLV

/// An enumeration of a cluster (`Clusters.OnOff.StartUpOnOffEnum`), written as its unsigned raw value.
/// Reading a value the enumeration does not name is an error naming the enumeration and the value.
public protocol ClusterEnum: RawRepresentable, CaseIterable, Hashable, Sendable, TLVEncodable, TLVDecodable
where RawValue: FixedWidthInteger & UnsignedInteger & TLVEncodable & TLVDecodable {}

extension ClusterEnum {
    public init(tlv element: TLVElement) throws(TLVError) {
        let raw = try RawValue(tlv: element)
        guard let value = Self(rawValue: raw) else {
            throw .invalidValue(tag: element.tag, reason: "\(Self.self) has no value \(raw)")
        }
        self = value
    }

    public func encode(to writer: inout TLVWriter, tag: TLVTag) { rawValue.encode(to: &writer, tag: tag) }
}
