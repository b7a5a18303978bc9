/// Base38, the text encoding of QR-code payloads: alphabet `0-9 A-Z - .`, each 3-byte chunk
/// (little-endian value) written as 5 characters least-significant digit first; a final chunk of 2
/// bytes as 4 characters, of 1 byte as 2 characters.
public enum Base38 {
    /// The 38 characters, indexed by digit value.
    public static let alphabet: [Character] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-.")

    /// Characters written for a chunk of 1, 2 or 3 bytes (index = byte count).
    static let charactersPerChunk = [0, 2, 4, 5]

    /// Length of the encoding of `byteCount` bytes.
    public static func encodedLength(byteCount: Int) -> Int {
        (byteCount / 3) * 5 + charactersPerChunk[byteCount % 3]
    }

    /// Encodes `bytes`; every chunk is written with its full character count.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out = [Character]()
        out.reserveCapacity(encodedLength(byteCount: bytes.count))
        var start = 0
        while start < bytes.count {
            let chunk = bytes[start..<min(start + 3, bytes.count)]
            var value = chunk.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            for _ in 0..<charactersPerChunk[chunk.count] {
                out.append(alphabet[Int(value % 38)])
                value /= 38
            }
            start += 3
        }
        return String(out)
    }

    /// Decodes base38 text. Throws on a character outside the alphabet, on a length leaving a final
    /// group of 1 or 3 characters, and on a group whose value does not fit its bytes (`S6`, `OE71`).
    /// Positions in errors are counted from the start of `text`.
    public static func decode(_ text: String) throws(OnboardingError) -> [UInt8] {
        try decode(Array(text), positionOffset: 0)
    }

    /// Decodes characters, reporting positions shifted by `positionOffset` (for text cut out of a longer input).
    static func decode(_ characters: [Character], positionOffset: Int) throws(OnboardingError) -> [UInt8] {
        var digits = [UInt32]()
        digits.reserveCapacity(characters.count)
        for (index, character) in characters.enumerated() {
            guard let digit = digitValue(character) else {
                throw .invalidBase38Character(character, position: positionOffset + index)
            }
            digits.append(digit)
        }
        guard ![1, 3].contains(characters.count % 5) else { throw .invalidBase38Length(characters.count) }
        var out = [UInt8]()
        out.reserveCapacity(characters.count / 5 * 3 + 2)
        var start = 0
        while start < digits.count {
            let count = min(5, digits.count - start)
            let byteCount = charactersPerChunk.firstIndex(of: count) ?? 3
            let value = digits[start..<start + count].reversed().reduce(UInt32(0)) { $0 * 38 + $1 }
            guard value >> (8 * byteCount) == 0 else {
                throw .base38ValueOutOfRange(
                    group: String(characters[start..<start + count]), position: positionOffset + start)
            }
            for shift in 0..<byteCount { out.append(UInt8(truncatingIfNeeded: value >> (8 * shift))) }
            start += count
        }
        return out
    }

    private static func digitValue(_ character: Character) -> UInt32? {
        guard let ascii = character.asciiValue else { return nil }
        switch ascii {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(ascii - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt32(ascii - UInt8(ascii: "A")) + 10
        case UInt8(ascii: "-"): return 36
        case UInt8(ascii: "."): return 37
        default: return nil
        }
    }
}
