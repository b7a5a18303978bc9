/// One element of a QR code's optional TLV data that the payload model has no field for: a
/// vendor-specific element (context tag 0x80–0xFF) or a Matter-common tag this version does not know.
public struct OptionalDataElement: Hashable, Sendable {
    /// The value types kept; other TLV types (booleans, floats, null, containers) are skipped when
    /// parsing, as the SDK skips them.
    public enum Value: Hashable, Sendable {
        case utf8(String)
        case unsigned(UInt64)
        case signed(Int64)
        case bytes([UInt8])
    }

    /// The context tag number.
    public var tag: UInt8
    public var value: Value

    public init(tag: UInt8, _ value: Value) {
        self.tag = tag
        self.value = value
    }

    /// First vendor-specific tag; lower tags are Matter-common.
    public static let firstVendorTag: UInt8 = 0x80

    /// True for tags 0x80–0xFF.
    public var isVendorSpecific: Bool { tag >= Self.firstVendorTag }
}
