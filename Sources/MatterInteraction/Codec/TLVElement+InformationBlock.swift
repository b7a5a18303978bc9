import MatterTLV

/// Decoding helpers shared by the IB and message decoders. They look members up by tag, so member
/// order does not matter and unknown tags are skipped.
extension TLVElement {
    /// The members of a structure or list (paths are lists, other IBs structures; both are accepted).
    func ibMembers(_ name: String) throws(TLVError) -> [TLVElement] {
        switch value {
        case .structure(let members), .list(let members): return members
        default: throw .invalidValue(tag: tag, reason: "\(name) must be a structure or list, found \(value.type)")
        }
    }

    /// The members of an array (a list is accepted too).
    func arrayMembers(_ name: String) throws(TLVError) -> [TLVElement] {
        switch value {
        case .array(let members), .list(let members): return members
        default: throw .invalidValue(tag: tag, reason: "\(name) must be an array, found \(value.type)")
        }
    }

    /// The member with context tag `tag` decoded as `T`, or nil when absent.
    func optional<T: TLVDecodable>(_ tag: UInt8, _ type: T.Type = T.self) throws(TLVError) -> T? {
        guard let member = self[context: tag] else { return nil }
        return try T(tlv: member)
    }

    /// The member with context tag `tag` decoded as `T`; absent throws.
    func required<T: TLVDecodable>(_ tag: UInt8, _ type: T.Type = T.self) throws(TLVError) -> T {
        guard let member = self[context: tag] else { throw .missingElement(tag: .context(tag)) }
        return try T(tlv: member)
    }

    /// The array member with context tag `tag`, each item decoded as `T`; absent gives `[]`.
    func array<T: TLVDecodable>(_ tag: UInt8, of type: T.Type = T.self, name: String) throws(TLVError) -> [T] {
        guard let member = self[context: tag] else { return [] }
        var items: [T] = []
        for item in try member.arrayMembers(name) { items.append(try T(tlv: item)) }
        return items
    }
}

extension TLVWriter {
    /// Writes `items` as an array tagged `tag`, or nothing when `items` is empty.
    mutating func putArrayIfNotEmpty<T: TLVEncodable>(_ items: [T], tag: UInt8) {
        guard !items.isEmpty else { return }
        startContainer(.array, tag: .context(tag))
        for item in items { put(item) }
        endContainer()
    }

    /// Writes `true` tagged `tag`, or nothing for `false` (flags whose absence means false).
    mutating func putFlag(_ flag: Bool, tag: UInt8) {
        if flag { put(true, tag: .context(tag)) }
    }
}
