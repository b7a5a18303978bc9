/// A type that reads itself from one TLV element, either an element already decoded as a tree or the
/// next element of a streaming ``TLVReader``.
///
/// Conformances here mirror ``TLVEncodable``: `Bool`, every fixed-width integer, `Float`, `Double`,
/// `String`, `[UInt8]` (octet string), ``TLVValue``, ``TLVElement`` and ``TLVNullable``. Conversions are
/// strict, like the Matter SDK's `TLVReader::Get`:
/// - integers of any encoded width are accepted, range-checked against the Swift type
///   (``TLVError/integerOutOfRange(tag:value:target:)``), and signed and unsigned do not mix
///   (``TLVError/typeMismatch(tag:expected:found:)``);
/// - `Float` accepts only float32; `Double` accepts float64 and float32 (widened exactly).
///
/// `Optional` does not conform: read an optional field with ``TLVReader/readIfPresent(_:tag:)`` or
/// ``TLVElement/decodeMemberIfPresent(_:as:)``.
public protocol TLVDecodable {
    /// Reads `Self` from `element`; its tag is only used in error messages.
    init(tlv element: TLVElement) throws(TLVError)
    /// Reads `Self` from the next element of `reader`, whatever its tag (use
    /// ``TLVReader/read(_:tag:)`` to check the tag). The default reads the element as a tree and calls
    /// ``init(tlv:)``; conform to read large containers without building a tree.
    init(from reader: inout TLVReader) throws(TLVError)
}

extension TLVDecodable {
    /// Reads the next element whole, as a tree, and converts it with ``init(tlv:)``.
    public init(from reader: inout TLVReader) throws(TLVError) {
        try self.init(tlv: reader.readElement())
    }
}

extension TLVDecodable where Self: FixedWidthInteger {
    /// Reads an integer of the same signedness that fits in `Self`.
    public init(tlv element: TLVElement) throws(TLVError) {
        self = try element.integer()
    }

    /// Reads the next element, which must be an integer of the same signedness that fits in `Self`.
    public init(from reader: inout TLVReader) throws(TLVError) {
        self = try reader.readPrimitive(expecting: Self.isSigned ? .signedInteger : .unsignedInteger).integer()
    }
}

extension TLVElement {
    /// The value of this integer element as `T`, range-checked, signedness kept.
    func integer<T: FixedWidthInteger>(_: T.Type = T.self) throws(TLVError) -> T {
        let expected: TLVElementType = T.isSigned ? .signedInteger : .unsignedInteger
        switch value {
        case .unsigned(let v) where !T.isSigned:
            guard let result = T(exactly: v) else {
                throw .integerOutOfRange(tag: tag, value: "\(v)", target: "\(T.self)")
            }
            return result
        case .signed(let v) where T.isSigned:
            guard let result = T(exactly: v) else {
                throw .integerOutOfRange(tag: tag, value: "\(v)", target: "\(T.self)")
            }
            return result
        default:
            throw .typeMismatch(tag: tag, expected: expected, found: value.type)
        }
    }

    /// The type-mismatch error of this element against `expected`.
    func mismatch(_ expected: TLVElementType) -> TLVError {
        .typeMismatch(tag: tag, expected: expected, found: value.type)
    }
}

extension Int8: TLVDecodable {}
extension Int16: TLVDecodable {}
extension Int32: TLVDecodable {}
extension Int64: TLVDecodable {}
extension Int: TLVDecodable {}
extension UInt8: TLVDecodable {}
extension UInt16: TLVDecodable {}
extension UInt32: TLVDecodable {}
extension UInt64: TLVDecodable {}
extension UInt: TLVDecodable {}

extension Bool: TLVDecodable {
    public init(tlv element: TLVElement) throws(TLVError) {
        guard case .bool(let v) = element.value else { throw element.mismatch(.boolean) }
        self = v
    }

    public init(from reader: inout TLVReader) throws(TLVError) {
        try self.init(tlv: reader.readPrimitive(expecting: .boolean))
    }
}

extension Float: TLVDecodable {
    public init(tlv element: TLVElement) throws(TLVError) {
        guard case .float(let v) = element.value else { throw element.mismatch(.float) }
        self = v
    }

    public init(from reader: inout TLVReader) throws(TLVError) {
        try self.init(tlv: reader.readPrimitive(expecting: .float))
    }
}

extension Double: TLVDecodable {
    public init(tlv element: TLVElement) throws(TLVError) {
        switch element.value {
        case .double(let v): self = v
        case .float(let v): self = Double(v)
        default: throw element.mismatch(.double)
        }
    }

    public init(from reader: inout TLVReader) throws(TLVError) {
        try self.init(tlv: reader.readPrimitive(expecting: .double))
    }
}

extension String: TLVDecodable {
    public init(tlv element: TLVElement) throws(TLVError) {
        guard case .utf8(let v) = element.value else { throw element.mismatch(.utf8String) }
        self = v
    }

    public init(from reader: inout TLVReader) throws(TLVError) {
        try self.init(tlv: reader.readPrimitive(expecting: .utf8String))
    }
}

extension Array: TLVDecodable where Element == UInt8 {
    /// Reads an octet string.
    public init(tlv element: TLVElement) throws(TLVError) {
        guard case .bytes(let v) = element.value else { throw element.mismatch(.octetString) }
        self = v
    }

    public init(from reader: inout TLVReader) throws(TLVError) {
        try self.init(tlv: reader.readPrimitive(expecting: .octetString))
    }
}

extension TLVValue: TLVDecodable {
    /// The element's value, whatever it is.
    public init(tlv element: TLVElement) throws(TLVError) {
        self = element.value
    }
}

extension TLVElement: TLVDecodable {
    /// The element itself; with ``TLVReader/read(_:tag:)``, a member kept as a tree.
    public init(tlv element: TLVElement) throws(TLVError) {
        self = element
    }
}
