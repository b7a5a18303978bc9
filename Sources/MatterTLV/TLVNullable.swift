/// A value that may be TLV `null`: Matter's *nullable* quality.
///
/// Distinct from `Optional`, which this module uses for *absent* fields: an optional nullable field is a
/// `TLVNullable<T>?` (absent, `null`, or a value).
public enum TLVNullable<Wrapped> {
    /// The element is `null`.
    case null
    /// The element holds a value.
    case value(Wrapped)

    /// `.null` for nil, else `.value`.
    public init(_ optional: Wrapped?) {
        self = optional.map(TLVNullable.value) ?? .null
    }

    /// The value, or nil for `.null`.
    public var optional: Wrapped? {
        if case .value(let v) = self { v } else { nil }
    }
}

extension TLVNullable: Equatable where Wrapped: Equatable {}
extension TLVNullable: Hashable where Wrapped: Hashable {}
extension TLVNullable: Sendable where Wrapped: Sendable {}

extension TLVNullable: TLVEncodable where Wrapped: TLVEncodable {
    /// Writes a null element, or the wrapped value.
    public func encode(to writer: inout TLVWriter, tag: TLVTag) {
        switch self {
        case .null: writer.putNull(tag: tag)
        case .value(let v): v.encode(to: &writer, tag: tag)
        }
    }
}

extension TLVNullable: TLVDecodable where Wrapped: TLVDecodable {
    /// `.null` for a null element, else the element read as `Wrapped`.
    public init(tlv element: TLVElement) throws(TLVError) {
        self = element.isNull ? .null : .value(try Wrapped(tlv: element))
    }

    public init(from reader: inout TLVReader) throws(TLVError) {
        if try reader.requireElement(tag: nil).type == .null {
            try reader.readNull()
            self = .null
        } else {
            self = .value(try Wrapped(from: &reader))
        }
    }
}
