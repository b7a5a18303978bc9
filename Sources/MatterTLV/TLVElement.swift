/// One TLV element: a tag and a value, containers holding their members as elements.
///
/// The tree form suits small messages and order-tolerant decoding (look members up by tag); big
/// messages can be read token by token with ``TLVReader`` instead.
///
/// ```swift
/// let element = try TLVElement.decode(bytes)
/// let sessionID = try element.decodeMember(.context(2), as: UInt16.self)
/// let idle = element[context: 5]?[context: 1]?.uint
/// ```
public struct TLVElement: Hashable, Sendable {
    /// The element's tag.
    public var tag: TLVTag
    /// The element's value.
    public var value: TLVValue

    /// An element with `tag` (anonymous by default) and `value`.
    public init(tag: TLVTag = .anonymous, _ value: TLVValue) {
        self.tag = tag
        self.value = value
    }

    /// Decodes exactly one element from `bytes`; trailing bytes are an error.
    ///
    /// Integers and string lengths of any width and both tag widths are accepted. Throws a ``TLVError``
    /// naming the offset of the first malformation.
    public static func decode(_ bytes: [UInt8]) throws(TLVError) -> TLVElement {
        var reader = TLVReader(bytes)
        let element = try reader.readElement()
        try reader.expectEnd()
        return element
    }

    /// The minimal encoding of this element (see ``TLVWriter``).
    public func encoded() -> [UInt8] {
        var writer = TLVWriter()
        writer.put(self)
        return writer.bytes
    }

    /// For structures and lists: the first member with this context tag, or nil.
    public subscript(context tag: UInt8) -> TLVElement? {
        self[tag: .context(tag)]
    }

    /// For structures and lists: the first member with this tag, or nil.
    public subscript(tag tag: TLVTag) -> TLVElement? {
        switch value {
        case .structure(let members), .list(let members): members.first { $0.tag == tag }
        default: nil
        }
    }

    // MARK: - Convenience accessors (nil when the value is of another kind)

    /// The kind of the value.
    public var type: TLVElementType { value.type }
    /// The value of an unsigned integer element (signed elements give nil).
    public var uint: UInt64? {
        if case .unsigned(let v) = value { v } else { nil }
    }
    /// The value of a signed integer element (unsigned elements give nil).
    public var int: Int64? {
        if case .signed(let v) = value { v } else { nil }
    }
    /// The value of a boolean element.
    public var bool: Bool? {
        if case .bool(let v) = value { v } else { nil }
    }
    /// The value of a float32 element.
    public var float: Float? {
        if case .float(let v) = value { v } else { nil }
    }
    /// The value of a float64 element.
    public var double: Double? {
        if case .double(let v) = value { v } else { nil }
    }
    /// The value of a UTF-8 string element.
    public var string: String? {
        if case .utf8(let v) = value { v } else { nil }
    }
    /// The value of an octet string element.
    public var bytes: [UInt8]? {
        if case .bytes(let v) = value { v } else { nil }
    }
    /// True for a null element.
    public var isNull: Bool { value == .null }
    /// The members of a structure, array or list; nil for other values.
    public var members: [TLVElement]? { value.members }

    // MARK: - Typed member access

    /// The member tagged `tag` of this structure or list, decoded as `T`.
    ///
    /// Throws ``TLVError/missingElement(tag:)`` when no member has that tag, and
    /// ``TLVError/typeMismatch(tag:expected:found:)`` when this element is not a structure or list.
    public func decodeMember<T: TLVDecodable>(_ tag: TLVTag, as type: T.Type = T.self) throws(TLVError) -> T {
        guard let member = try member(tag) else { throw .missingElement(tag: tag) }
        return try T(tlv: member)
    }

    /// The member tagged `tag` of this structure or list decoded as `T`, or nil when there is none.
    public func decodeMemberIfPresent<T: TLVDecodable>(_ tag: TLVTag, as type: T.Type = T.self) throws(TLVError) -> T? {
        guard let member = try member(tag) else { return nil }
        return try T(tlv: member)
    }

    /// The members of this array, each decoded as `T`.
    public func decodeArray<T: TLVDecodable>(of type: T.Type = T.self) throws(TLVError) -> [T] {
        guard case .array(let members) = value else {
            throw .typeMismatch(tag: tag, expected: .array, found: value.type)
        }
        var values: [T] = []
        values.reserveCapacity(members.count)
        for member in members { values.append(try T(tlv: member)) }
        return values
    }

    private func member(_ tag: TLVTag) throws(TLVError) -> TLVElement? {
        switch value {
        case .structure(let members), .list(let members): return members.first { $0.tag == tag }
        default: throw .typeMismatch(tag: self.tag, expected: .structure, found: value.type)
        }
    }
}

extension TLVElement: CustomStringConvertible {
    /// The element on one line: `{0: 42U, 1: -17}`. See ``prettyDescription`` for the format.
    public var description: String { TLVPrettyPrinter.format(self, multiline: false) }

    /// The element for logs, one member a line, two spaces of indent per level:
    ///
    /// ```
    /// {
    ///   1: hex:a1b2c3
    ///   2: 56371U
    ///   3: "kitchen"
    ///   4: false
    ///   5: {
    ///     1: 5000U
    ///   }
    ///   FFF1:DEED:1: [
    ///     7U
    ///   ]
    /// }
    /// ```
    /// Tags: context `0:`, fully qualified `FFF1:DEED:1:` (hex vendor, profile, tag), `common:N:`,
    /// `implicit:N:`; anonymous members have no prefix. Unsigned integers end in `U`, signed have no
    /// suffix; float32 ends in `f`; octet strings are `hex:` and lower-case hex; strings are quoted with
    /// Swift escapes; `{}` structure, `[]` array, `[[]]` list.
    public var prettyDescription: String { TLVPrettyPrinter.format(self, multiline: true) }
}
