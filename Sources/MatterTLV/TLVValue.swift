/// The value of a TLV element.
///
/// Integers keep their signedness (it is part of the type on the wire) but not their encoded width:
/// writers always use the smallest width. Floating-point equality is Swift's (`NaN != NaN`,
/// `-0.0 == 0.0`), although the encoding keeps the exact bits.
public indirect enum TLVValue: Hashable, Sendable {
    /// A signed integer (element types 0x00–0x03).
    case signed(Int64)
    /// An unsigned integer (element types 0x04–0x07).
    case unsigned(UInt64)
    /// A boolean (0x08 false, 0x09 true; no value bytes).
    case bool(Bool)
    /// An IEEE-754 single-precision number (0x0A).
    case float(Float)
    /// An IEEE-754 double-precision number (0x0B).
    case double(Double)
    /// A UTF-8 string, not NUL-terminated (0x0C–0x0F).
    case utf8(String)
    /// An octet string (0x10–0x13).
    case bytes([UInt8])
    /// Null (0x14).
    case null
    /// A structure (0x15): tagged members.
    case structure([TLVElement])
    /// An array (0x16): anonymous members.
    case array([TLVElement])
    /// A list (0x17): ordered members, tagged or not.
    case list([TLVElement])

    /// The kind of this value.
    public var type: TLVElementType {
        switch self {
        case .signed: .signedInteger
        case .unsigned: .unsignedInteger
        case .bool: .boolean
        case .float: .float
        case .double: .double
        case .utf8: .utf8String
        case .bytes: .octetString
        case .null: .null
        case .structure: .structure
        case .array: .array
        case .list: .list
        }
    }

    /// The members of a structure, array or list; nil for other values.
    public var members: [TLVElement]? {
        switch self {
        case .structure(let members), .array(let members), .list(let members): members
        default: nil
        }
    }
}

extension TLVValue: CustomStringConvertible {
    /// The value on one line, as in ``TLVElement/description``.
    public var description: String { TLVPrettyPrinter.format(TLVElement(self), multiline: false) }
}
