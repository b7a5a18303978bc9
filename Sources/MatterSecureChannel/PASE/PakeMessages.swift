import MatterTLV

/// Pake1 (opcode 0x22) `{1: pA octets(65)}`, Pake2 (0x23) `{1: pB octets(65), 2: cB octets(32)}` and
/// Pake3 (0x24) `{1: cA octets(32)}`.
enum PakeMessages {
    static func pake1(pA: [UInt8]) -> [UInt8] { structure([(1, pA)]) }
    static func pake2(pB: [UInt8], cB: [UInt8]) -> [UInt8] { structure([(1, pB), (2, cB)]) }
    static func pake3(cA: [UInt8]) -> [UInt8] { structure([(1, cA)]) }

    /// The octet-string members `tags` of a Pake message, with their exact lengths checked.
    static func decode(_ name: String, _ bytes: [UInt8], members: [(tag: UInt8, length: Int)])
        throws(SecureChannelError) -> [[UInt8]]
    {
        let element = try SecureChannelError.decoding(name, bytes)
        var values: [[UInt8]] = []
        for member in members {
            guard let value = element[context: member.tag]?.bytes else {
                throw .invalidMessage("\(name): member \(member.tag) missing or not an octet string")
            }
            guard value.count == member.length else {
                throw .invalidMessage(
                    "\(name): member \(member.tag) has \(value.count) bytes, expected \(member.length)")
            }
            values.append(value)
        }
        return values
    }

    private static func structure(_ members: [(UInt8, [UInt8])]) -> [UInt8] {
        var w = TLVWriter(capacity: 112)
        w.putStructure { w in
            for (tag, value) in members { w.put(value, tag: .context(tag)) }
        }
        return w.bytes
    }
}
