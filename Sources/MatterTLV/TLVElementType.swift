/// The kind of value a TLV element holds, without the width it was encoded in.
///
/// Used by the streaming reader to announce the next element before reading it, and in
/// ``TLVError/typeMismatch(tag:expected:found:)``.
public enum TLVElementType: Hashable, Sendable, CustomStringConvertible {
    /// Scalars: a two's-complement or unsigned integer of any width, a boolean, a float32, a float64,
    /// a UTF-8 string, an octet string, null.
    case signedInteger, unsignedInteger, boolean, float, double, utf8String, octetString, null
    /// Containers.
    case structure, array, list

    /// True for structures, arrays and lists.
    public var isContainer: Bool {
        switch self {
        case .structure, .array, .list: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .signedInteger: "signed integer"
        case .unsignedInteger: "unsigned integer"
        case .boolean: "boolean"
        case .float: "float32"
        case .double: "float64"
        case .utf8String: "UTF-8 string"
        case .octetString: "octet string"
        case .null: "null"
        case .structure: "structure"
        case .array: "array"
        case .list: "list"
        }
    }

    /// The kind named by the low five bits of a control byte; nil for end-of-container and reserved types.
    init?(elementTypeBits bits: UInt8) {
        switch bits {
        case 0x00...0x03: self = .signedInteger
        case 0x04...0x07: self = .unsignedInteger
        case TLVControl.booleanFalse, TLVControl.booleanTrue: self = .boolean
        case TLVControl.float32: self = .float
        case TLVControl.float64: self = .double
        case 0x0C...0x0F: self = .utf8String
        case 0x10...0x13: self = .octetString
        case TLVControl.null: self = .null
        case TLVControl.structure: self = .structure
        case TLVControl.array: self = .array
        case TLVControl.list: self = .list
        default: return nil
        }
    }
}

/// The three TLV container types.
///
/// Structures hold tagged members (context tags ascending, by convention); arrays hold anonymous
/// members; lists hold members in a significant order, tagged or not.
public enum TLVContainerType: Hashable, Sendable, CustomStringConvertible {
    case structure, array, list

    /// The same kind as a ``TLVElementType``.
    public var elementType: TLVElementType {
        switch self {
        case .structure: .structure
        case .array: .array
        case .list: .list
        }
    }

    public var description: String { elementType.description }

    /// The element-type bits that open this container.
    var controlType: UInt8 {
        switch self {
        case .structure: TLVControl.structure
        case .array: TLVControl.array
        case .list: TLVControl.list
        }
    }
}
