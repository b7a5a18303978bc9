import MatterTLV
import Testing

/// Bytes from hex text; spaces are ignored. A malformed literal is a bug in the test and is recorded.
func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
    let digits = text.filter { !$0.isWhitespace }
    var bytes: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2, limitedBy: digits.endIndex) ?? digits.endIndex
        guard let byte = UInt8(digits[index..<next], radix: 16), digits.distance(from: index, to: next) == 2 else {
            Issue.record("bad hex literal \(text)", sourceLocation: sourceLocation)
            return []
        }
        bytes.append(byte)
        index = next
    }
    return bytes
}

/// Lower-case hex with a space between bytes, for readable failure messages.
func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { byte in
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }.joined(separator: " ")
}

/// Shorthand for an element with a context tag.
func ctx(_ number: UInt8, _ value: TLVValue) -> TLVElement {
    TLVElement(tag: .context(number), value)
}

/// Shorthand for an anonymous element.
func anon(_ value: TLVValue) -> TLVElement {
    TLVElement(value)
}
