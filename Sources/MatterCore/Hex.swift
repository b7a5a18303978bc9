/// Hexadecimal text ⇄ bytes, for logs, fixtures and the CLI.
package enum Hex {
    /// Lower-case hex of `bytes`, no separators.
    package static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let table = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(table[Int(b >> 4)])
            out.append(table[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses hex text; spaces, colons and newlines between byte pairs are ignored.
    /// Returns nil on an odd digit count or a non-hex character.
    package static func decode(_ text: String) -> [UInt8]? {
        var out = [UInt8]()
        var high: UInt8?
        for c in text.utf8 {
            let nibble: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = c - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: "\n"), UInt8(ascii: "\t"):
                if high != nil { return nil }
                continue
            default: return nil
            }
            if let h = high {
                out.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? out : nil
    }
}
