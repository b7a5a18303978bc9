package import MatterInteraction
package import MatterTLV

/// TLV to Swift values for command fields and written attribute values, failing with the status the
/// caller names: a command answers INVALID_COMMAND for anything it cannot decode, a write answers
/// INVALID_DATA_TYPE for a value of the wrong type and CONSTRAINT_ERROR for one out of range.
enum ValueDecoding {
    static func unsigned<T: FixedWidthInteger & UnsignedInteger>(
        _ value: TLVValue, _ type: T.Type, typeError: IMStatus, rangeError: IMStatus
    ) throws(StatusIB) -> T {
        guard case .unsigned(let raw) = value else { throw StatusIB(typeError) }
        guard let result = T(exactly: raw) else { throw StatusIB(rangeError) }
        return result
    }

    /// A signed integer; a non-negative one may arrive TLV-encoded as unsigned (writers choose).
    static func signed<T: FixedWidthInteger & SignedInteger>(
        _ value: TLVValue, _ type: T.Type, typeError: IMStatus, rangeError: IMStatus
    ) throws(StatusIB) -> T {
        let result: T?
        switch value {
        case .signed(let raw): result = T(exactly: raw)
        case .unsigned(let raw): result = T(exactly: raw)
        default: throw StatusIB(typeError)
        }
        guard let result else { throw StatusIB(rangeError) }
        return result
    }

    static func nullableUnsigned<T: FixedWidthInteger & UnsignedInteger>(
        _ value: TLVValue, _ type: T.Type, typeError: IMStatus, rangeError: IMStatus
    ) throws(StatusIB) -> T? {
        if case .null = value { return nil }
        return try unsigned(value, type, typeError: typeError, rangeError: rangeError)
    }

    static func bool(_ value: TLVValue, typeError: IMStatus) throws(StatusIB) -> Bool {
        guard case .bool(let flag) = value else { throw StatusIB(typeError) }
        return flag
    }

    static func string(_ value: TLVValue, maxLength: Int?, typeError: IMStatus) throws(StatusIB) -> String {
        guard case .utf8(let text) = value else { throw StatusIB(typeError) }
        if let maxLength, text.utf8.count > maxLength { throw StatusIB(.constraintError) }
        return text
    }

    static func octets(_ value: TLVValue, maxLength: Int?, typeError: IMStatus) throws(StatusIB) -> [UInt8] {
        guard case .bytes(let bytes) = value else { throw StatusIB(typeError) }
        if let maxLength, bytes.count > maxLength { throw StatusIB(.constraintError) }
        return bytes
    }

    static func array(_ value: TLVValue, typeError: IMStatus) throws(StatusIB) -> [TLVElement] {
        guard case .array(let members) = value else { throw StatusIB(typeError) }
        return members
    }
}

/// The CommandFields structure of an invoked command, with typed accessors that fail the way the
/// SDK does: a missing mandatory field, a field of the wrong TLV type or an integer too wide for its
/// type → INVALID_COMMAND; a string or octet string over its maximum length → CONSTRAINT_ERROR.
/// Range checks beyond the type (`Level ≤ 254`) are the cluster's, with CONSTRAINT_ERROR.
///
/// ```swift
/// let level = try fields.unsigned(0, UInt8.self)
/// let transition = try fields.nullableUnsigned(1, UInt16.self)
/// let mask = try fields.optionalUnsigned(2, UInt8.self) ?? 0
/// ```
public struct CommandFields: Sendable {
    /// The CommandFields structure as received.
    package let element: TLVElement

    package init(_ element: TLVElement) { self.element = element }

    /// The member with context tag `tag`, if present.
    package subscript(tag: UInt8) -> TLVElement? { element[context: tag] }

    private func required(_ tag: UInt8) throws(StatusIB) -> TLVValue {
        guard let member = self[tag] else { throw StatusIB(.invalidCommand) }
        return member.value
    }

    /// A mandatory unsigned integer (also enums and bitmaps).
    package func unsigned<T: FixedWidthInteger & UnsignedInteger>(_ tag: UInt8, _ type: T.Type = T.self)
        throws(StatusIB) -> T
    {
        try ValueDecoding.unsigned(try required(tag), type, typeError: .invalidCommand, rangeError: .invalidCommand)
    }

    /// A mandatory signed integer.
    package func signed<T: FixedWidthInteger & SignedInteger>(_ tag: UInt8, _ type: T.Type = T.self)
        throws(StatusIB) -> T
    {
        try ValueDecoding.signed(try required(tag), type, typeError: .invalidCommand, rangeError: .invalidCommand)
    }

    /// An optional unsigned integer: nil when absent.
    package func optionalUnsigned<T: FixedWidthInteger & UnsignedInteger>(_ tag: UInt8, _ type: T.Type = T.self)
        throws(StatusIB) -> T?
    {
        guard let member = self[tag] else { return nil }
        return try ValueDecoding.unsigned(member.value, type, typeError: .invalidCommand, rangeError: .invalidCommand)
    }

    /// An optional signed integer: nil when absent.
    package func optionalSigned<T: FixedWidthInteger & SignedInteger>(_ tag: UInt8, _ type: T.Type = T.self)
        throws(StatusIB) -> T?
    {
        guard let member = self[tag] else { return nil }
        return try ValueDecoding.signed(member.value, type, typeError: .invalidCommand, rangeError: .invalidCommand)
    }

    /// A mandatory nullable unsigned integer: nil for `null`.
    package func nullableUnsigned<T: FixedWidthInteger & UnsignedInteger>(_ tag: UInt8, _ type: T.Type = T.self)
        throws(StatusIB) -> T?
    {
        try ValueDecoding.nullableUnsigned(
            try required(tag), type, typeError: .invalidCommand, rangeError: .invalidCommand)
    }

    /// A mandatory boolean.
    package func bool(_ tag: UInt8) throws(StatusIB) -> Bool {
        try ValueDecoding.bool(try required(tag), typeError: .invalidCommand)
    }

    /// A mandatory string of at most `maxLength` bytes.
    package func string(_ tag: UInt8, maxLength: Int? = nil) throws(StatusIB) -> String {
        try ValueDecoding.string(try required(tag), maxLength: maxLength, typeError: .invalidCommand)
    }

    /// A mandatory nullable string of at most `maxLength` bytes: nil for `null`.
    package func nullableString(_ tag: UInt8, maxLength: Int? = nil) throws(StatusIB) -> String? {
        let value = try required(tag)
        if case .null = value { return nil }
        return try ValueDecoding.string(value, maxLength: maxLength, typeError: .invalidCommand)
    }

    /// A mandatory structure field, as fields of its own.
    package func structure(_ tag: UInt8) throws(StatusIB) -> CommandFields {
        guard let member = self[tag], case .structure = member.value else { throw StatusIB(.invalidCommand) }
        return CommandFields(member)
    }

    /// A mandatory nullable structure field: nil for `null`.
    package func nullableStructure(_ tag: UInt8) throws(StatusIB) -> CommandFields? {
        if case .null = try required(tag) { return nil }
        return try structure(tag)
    }

    /// An optional string: nil when absent.
    package func optionalString(_ tag: UInt8, maxLength: Int? = nil) throws(StatusIB) -> String? {
        guard let member = self[tag] else { return nil }
        return try ValueDecoding.string(member.value, maxLength: maxLength, typeError: .invalidCommand)
    }

    /// A mandatory octet string of at most `maxLength` bytes.
    package func octets(_ tag: UInt8, maxLength: Int? = nil) throws(StatusIB) -> [UInt8] {
        try ValueDecoding.octets(try required(tag), maxLength: maxLength, typeError: .invalidCommand)
    }

    /// An optional octet string: nil when absent.
    package func optionalOctets(_ tag: UInt8, maxLength: Int? = nil) throws(StatusIB) -> [UInt8]? {
        guard let member = self[tag] else { return nil }
        return try ValueDecoding.octets(member.value, maxLength: maxLength, typeError: .invalidCommand)
    }

    /// A mandatory list (TLV array).
    package func array(_ tag: UInt8) throws(StatusIB) -> [TLVElement] {
        try ValueDecoding.array(try required(tag), typeError: .invalidCommand)
    }

    /// A mandatory list of unsigned integers.
    package func unsignedList<T: FixedWidthInteger & UnsignedInteger>(_ tag: UInt8, _ type: T.Type = T.self)
        throws(StatusIB) -> [T]
    {
        var values: [T] = []
        for member in try array(tag) {
            values.append(
                try ValueDecoding.unsigned(member.value, type, typeError: .invalidCommand, rangeError: .invalidCommand))
        }
        return values
    }
}

/// A value written to an attribute, with typed accessors that fail the way a write should: a value of
/// the wrong TLV type (including `null` for a non-nullable attribute) → INVALID_DATA_TYPE; an integer
/// too wide for the attribute's type or a string over its maximum length → CONSTRAINT_ERROR.
///
/// ```swift
/// let label = try WriteValue(write).string(maxLength: 32)
/// ```
package struct WriteValue: Sendable {
    /// The written value (for an append: the appended entry).
    package let value: TLVValue

    package init(_ value: TLVValue) { self.value = value }

    /// The value of a whole-attribute write, or the entry of an append.
    package init(_ write: AttributeWrite) {
        switch write {
        case .replace(let value), .append(let value): self.value = value
        }
    }

    /// True for `null`.
    package var isNull: Bool { value == .null }

    /// An unsigned integer (also enums and bitmaps).
    package func unsigned<T: FixedWidthInteger & UnsignedInteger>(_ type: T.Type = T.self) throws(StatusIB) -> T {
        try ValueDecoding.unsigned(value, type, typeError: .invalidDataType, rangeError: .constraintError)
    }

    /// A nullable unsigned integer: nil for `null`.
    package func nullableUnsigned<T: FixedWidthInteger & UnsignedInteger>(_ type: T.Type = T.self)
        throws(StatusIB) -> T?
    {
        try ValueDecoding.nullableUnsigned(value, type, typeError: .invalidDataType, rangeError: .constraintError)
    }

    /// A boolean.
    package func bool() throws(StatusIB) -> Bool { try ValueDecoding.bool(value, typeError: .invalidDataType) }

    /// A string of at most `maxLength` bytes.
    package func string(maxLength: Int? = nil) throws(StatusIB) -> String {
        try ValueDecoding.string(value, maxLength: maxLength, typeError: .invalidDataType)
    }

    /// An octet string of at most `maxLength` bytes.
    package func octets(maxLength: Int? = nil) throws(StatusIB) -> [UInt8] {
        try ValueDecoding.octets(value, maxLength: maxLength, typeError: .invalidDataType)
    }

    /// A list's entries.
    package func array() throws(StatusIB) -> [TLVElement] {
        try ValueDecoding.array(value, typeError: .invalidDataType)
    }
}
