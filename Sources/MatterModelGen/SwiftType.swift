/// The Swift type of an attribute, a field or a list entry, as the typed layer spells it, with the code that
/// writes and reads it as TLV.
indirect enum SwiftType: Equatable {
    /// A type that is itself `TLVEncodable` and `TLVDecodable` (a number, a string, an enum, a struct...).
    case scalar(String)
    /// A TLV array of the inner type.
    case list(SwiftType)
    /// A value that may be TLV `null`.
    case nullable(SwiftType)

    /// The Swift spelling: `Swift.UInt8`, `[Clusters.Descriptor.DeviceTypeStruct]`, `TLVNullable<Swift.UInt16>`.
    var spelling: String {
        switch self {
        case .scalar(let name): name
        case .list(let inner): "[\(inner.spelling)]"
        case .nullable(let inner): "TLVNullable<\(inner.spelling)>"
        }
    }

    /// True when the type conforms to the TLV coding protocols itself (no list inside).
    var isCodable: Bool {
        switch self {
        case .scalar: true
        case .list: false
        case .nullable(let inner): inner.isCodable
        }
    }

    /// A statement that writes `value` with `tag` through `writer` (an `inout TLVWriter`).
    func encode(_ value: String, tag: String, writer: String, depth: Int = 0) -> String {
        if isCodable { return "\(writer).put(\(value), tag: \(tag))" }
        switch self {
        case .scalar:
            return "\(writer).put(\(value), tag: \(tag))"
        case .list(let inner):
            let item = "item\(depth)"
            let w = "w\(depth)"
            return "ClusterCoding.putList(\(value), to: &\(writer), tag: \(tag)) { \(item), \(w) in "
                + inner.encode(item, tag: ".anonymous", writer: w, depth: depth + 1) + " }"
        case .nullable(let inner):
            let item = "item\(depth)"
            return "switch \(value) { case .null: \(writer).putNull(tag: \(tag)); case .value(let \(item)): "
                + inner.encode(item, tag: tag, writer: writer, depth: depth + 1) + " }"
        }
    }

    /// An expression (starting with `try`) that reads the type from `element` (a `TLVElement`).
    func decode(_ element: String, depth: Int = 0) -> String {
        if isCodable { return "try \(spelling)(tlv: \(element))" }
        let name = "e\(depth)"
        switch self {
        case .scalar:
            return "try \(spelling)(tlv: \(element))"
        case .list(let inner):
            return "try ClusterCoding.list(\(element)) { (\(name): TLVElement) throws(TLVError) in "
                + inner.decode(name, depth: depth + 1) + " }"
        case .nullable(let inner):
            return "try ClusterCoding.nullable(\(element)) { (\(name): TLVElement) throws(TLVError) in "
                + inner.decode(name, depth: depth + 1) + " }"
        }
    }
}
