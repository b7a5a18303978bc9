/// A type that writes itself as one TLV element.
///
/// Conformances here: `Bool`, every fixed-width integer (signed types as TLV signed integers, unsigned
/// as unsigned), `Float` (float32), `Double` (float64), `String` (UTF-8 string), `[UInt8]` (octet
/// string), ``TLVValue``, ``TLVNullable`` and `Optional`.
///
/// `[UInt8]` is an octet string, never an array of integers: arrays of other values are written with
/// ``TLVWriter/putArray(_:tag:)`` and read with ``TLVReader/readArray(of:tag:)``.
///
/// `Optional` means *absent*: `nil` writes nothing, so an optional field can be written unconditionally.
/// A field that is present but null is a ``TLVNullable``.
public protocol TLVEncodable {
    /// Writes `self` as one element with `tag`.
    func encode(to writer: inout TLVWriter, tag: TLVTag)
}

extension TLVEncodable where Self: FixedWidthInteger {
    /// Writes a signed type as a TLV signed integer and an unsigned type as a TLV unsigned integer,
    /// each in the smallest width that holds the value.
    public func encode(to writer: inout TLVWriter, tag: TLVTag) {
        if Self.isSigned {
            writer.putSigned(Int64(truncatingIfNeeded: self), tag: tag)
        } else {
            writer.putUnsigned(UInt64(truncatingIfNeeded: self), tag: tag)
        }
    }
}

extension Int8: TLVEncodable {}
extension Int16: TLVEncodable {}
extension Int32: TLVEncodable {}
extension Int64: TLVEncodable {}
extension Int: TLVEncodable {}
extension UInt8: TLVEncodable {}
extension UInt16: TLVEncodable {}
extension UInt32: TLVEncodable {}
extension UInt64: TLVEncodable {}
extension UInt: TLVEncodable {}

extension Bool: TLVEncodable {
    public func encode(to writer: inout TLVWriter, tag: TLVTag) { writer.putBool(self, tag: tag) }
}

extension Float: TLVEncodable {
    public func encode(to writer: inout TLVWriter, tag: TLVTag) { writer.putFloat(self, tag: tag) }
}

extension Double: TLVEncodable {
    public func encode(to writer: inout TLVWriter, tag: TLVTag) { writer.putDouble(self, tag: tag) }
}

extension String: TLVEncodable {
    public func encode(to writer: inout TLVWriter, tag: TLVTag) { writer.putString(self, tag: tag) }
}

extension Array: TLVEncodable where Element == UInt8 {
    /// Writes the bytes as an octet string.
    public func encode(to writer: inout TLVWriter, tag: TLVTag) { writer.putBytes(self, tag: tag) }
}

extension Optional: TLVEncodable where Wrapped: TLVEncodable {
    /// Writes the wrapped value, or nothing at all for `nil` (an absent field).
    public func encode(to writer: inout TLVWriter, tag: TLVTag) {
        if let value = self { value.encode(to: &writer, tag: tag) }
    }
}

extension TLVValue: TLVEncodable {
    public func encode(to writer: inout TLVWriter, tag: TLVTag) { writer.putValue(self, tag: tag) }
}

extension TLVElement: TLVEncodable {
    /// Writes the element's value with `tag` (its own tag is not used).
    public func encode(to writer: inout TLVWriter, tag: TLVTag) { writer.putValue(value, tag: tag) }
}
