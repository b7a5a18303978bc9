public import MatterTLV

/// The TLV reading and writing the generated cluster types share: fields looked up by context tag and
/// named in errors (`OffWithEffect.EffectIdentifier: EffectIdentifierEnum has no value 7`), lists and
/// nullable lists.
public enum ClusterCoding {
    /// The members of `element`, which must be a structure (`name` is the type's, for errors).
    public static func members(of element: TLVElement, _ name: String) throws(TLVError) -> [TLVElement] {
        guard case .structure(let members) = element.value else {
            throw .invalidValue(tag: element.tag, reason: "\(name) must be a structure, not \(element.type)")
        }
        return members
    }

    /// The field tagged `tag`, read by `decode`; an error when it is absent or cannot be read.
    public static func required<T>(
        _ members: [TLVElement], _ tag: UInt8, _ name: String, _ decode: (TLVElement) throws(TLVError) -> T
    ) throws(TLVError) -> T {
        guard let member = members.first(where: { $0.tag == .context(tag) }) else {
            throw .invalidValue(tag: .context(tag), reason: "\(name) is missing")
        }
        return try field(member, name, decode)
    }

    /// The field tagged `tag` read by `decode`, or nil when it is absent.
    public static func optional<T>(
        _ members: [TLVElement], _ tag: UInt8, _ name: String, _ decode: (TLVElement) throws(TLVError) -> T
    ) throws(TLVError) -> T? {
        guard let member = members.first(where: { $0.tag == .context(tag) }) else { return nil }
        return try field(member, name, decode)
    }

    private static func field<T>(
        _ member: TLVElement, _ name: String, _ decode: (TLVElement) throws(TLVError) -> T
    ) throws(TLVError) -> T {
        do {
            return try decode(member)
        } catch {
            if case .invalidValue(_, let reason) = error {
                throw .invalidValue(tag: member.tag, reason: "\(name): \(reason)")
            }
            throw .invalidValue(tag: member.tag, reason: "\(name): \(error)")
        }
    }

    /// The entries of a TLV array (or list), each read by `decode`.
    public static func list<T>(_ element: TLVElement, _ decode: (TLVElement) throws(TLVError) -> T) throws(TLVError)
        -> [T]
    {
        switch element.value {
        case .array(let members), .list(let members):
            var out: [T] = []
            out.reserveCapacity(members.count)
            for (index, member) in members.enumerated() {
                do {
                    out.append(try decode(member))
                } catch {
                    if case .invalidValue(_, let reason) = error {
                        throw .invalidValue(tag: element.tag, reason: "entry \(index): \(reason)")
                    }
                    throw .invalidValue(tag: element.tag, reason: "entry \(index): \(error)")
                }
            }
            return out
        default:
            throw .typeMismatch(tag: element.tag, expected: .array, found: element.type)
        }
    }

    /// `null`, or the value `decode` reads.
    public static func nullable<T>(_ element: TLVElement, _ decode: (TLVElement) throws(TLVError) -> T)
        throws(TLVError) -> TLVNullable<T>
    {
        element.isNull ? .null : .value(try decode(element))
    }

    /// Writes `values` as an array tagged `tag`, each entry by `encode`.
    public static func putList<T>(
        _ values: [T], to writer: inout TLVWriter, tag: TLVTag, _ encode: (T, inout TLVWriter) -> Void
    ) {
        writer.putArray(tag: tag) { w in
            for value in values { encode(value, &w) }
        }
    }
}
