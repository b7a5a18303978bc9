package import Testing

/// Bytes from hex text (white space is ignored). A malformed literal is a bug in the test: it is
/// recorded as an issue (the test fails) and the result is empty.
package func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
    let digits = text.filter { !$0.isWhitespace }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2, limitedBy: digits.endIndex) ?? digits.endIndex
        guard digits.distance(from: index, to: next) == 2, let byte = UInt8(digits[index..<next], radix: 16) else {
            Issue.record("bad hex literal \(text)", sourceLocation: sourceLocation)
            return []
        }
        bytes.append(byte)
        index = next
    }
    return bytes
}

/// Lower-case hex of `bytes`, for readable failure messages.
package func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { byte in
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }.joined()
}
