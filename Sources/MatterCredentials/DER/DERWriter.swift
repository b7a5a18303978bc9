/// DER encoding helpers: each returns one complete element (identifier, minimal length, contents).
enum DERWriter {
    static func element(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [tag]
        let count = contents.count
        if count < 0x80 {
            out.append(UInt8(count))
        } else if count <= 0xFF {
            out += [0x81, UInt8(count)]
        } else if count <= 0xFFFF {
            out += [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            out += [0x83, UInt8(count >> 16), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)]
        }
        out += contents
        return out
    }

    static func sequence(_ members: [[UInt8]]) -> [UInt8] { element(DERTag.sequence, members.flatMap { $0 }) }
    static func set(_ members: [[UInt8]]) -> [UInt8] { element(DERTag.set, members.flatMap { $0 }) }
    static func oid(_ contents: [UInt8]) -> [UInt8] { element(DERTag.objectIdentifier, contents) }
    static func octetString(_ bytes: [UInt8]) -> [UInt8] { element(DERTag.octetString, bytes) }
    static func boolean(_ value: Bool) -> [UInt8] { element(DERTag.boolean, [value ? 0xFF : 0x00]) }
    /// A BIT STRING with no unused bits.
    static func bitString(_ bytes: [UInt8]) -> [UInt8] { element(DERTag.bitString, [0] + bytes) }
    static func explicit(_ number: UInt8, _ inner: [UInt8]) -> [UInt8] {
        element(DERTag.contextConstructed(number), inner)
    }

    /// A non-negative INTEGER from its big-endian magnitude: leading zeros stripped, a `00` added when the
    /// top bit is set.
    static func unsignedInteger(_ magnitude: [UInt8]) -> [UInt8] {
        var digits = Array(magnitude.drop { $0 == 0 })
        if digits.isEmpty { digits = [0] } else if digits[0] & 0x80 != 0 { digits.insert(0, at: 0) }
        return element(DERTag.integer, digits)
    }

    static func integer(_ value: UInt64) -> [UInt8] {
        unsignedInteger((0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) })
    }
}
