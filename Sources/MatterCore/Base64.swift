/// RFC 4648 base64 with padding; decoding ignores whitespace.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    package static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = bytes[index]
            let b1 = index + 1 < bytes.count ? bytes[index + 1] : 0
            let b2 = index + 2 < bytes.count ? bytes[index + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(index + 1 < bytes.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(index + 2 < bytes.count ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    package static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        var padding = 0
        for character in text.utf8 {
            switch character {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): continue
            case UInt8(ascii: "="):
                padding += 1
                continue
            default:
                guard padding == 0, let value = alphabet.firstIndex(of: character) else { return nil }
                values.append(UInt8(value))
            }
        }
        guard padding <= 2, (values.count + padding) % 4 == 0, values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        var index = 0
        while index < values.count {
            let chunk = values[index..<min(index + 4, values.count)]
            let v = Array(chunk) + [UInt8](repeating: 0, count: 4 - chunk.count)
            out.append(v[0] << 2 | v[1] >> 4)
            if chunk.count > 2 { out.append(v[1] << 4 | v[2] >> 2) }
            if chunk.count > 3 { out.append(v[2] << 6 | v[3]) }
            index += 4
        }
        return out
    }
}
