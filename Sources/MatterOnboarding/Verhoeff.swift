/// The Verhoeff check digit over decimal digits (dihedral group D5), as used by manual pairing codes.
///
/// With `d` the group's multiplication table, `p` the position permutations and `inv` the inverses:
/// `c = 0; for (i, digit) in digits.reversed().enumerated() { c = d[c][p[(i + 1) % 8][digit]] }`,
/// check digit = `inv[c]`. Positions start at 1 for the right-most digit because the check digit
/// will take position 0.
public enum Verhoeff {
    /// The check digit for a string of decimal digits, or nil if it holds anything but ASCII digits.
    public static func checkDigit(for digits: String) -> Character? {
        guard let values = digitValues(digits) else { return nil }
        return Character(String(checkDigit(values)))
    }

    /// True when the last digit of `digitsWithCheck` is the check digit of the ones before it.
    /// False for fewer than 2 characters or anything but ASCII digits.
    public static func isValid(_ digitsWithCheck: String) -> Bool {
        guard let values = digitValues(digitsWithCheck), let last = values.last, values.count >= 2 else {
            return false
        }
        return checkDigit(Array(values.dropLast())) == last
    }

    /// The check digit of `digits`, each 0...9 (callers guarantee it).
    static func checkDigit(_ digits: [UInt8]) -> UInt8 {
        var check = 0
        for (index, digit) in digits.reversed().enumerated() {
            check = multiplication[check][permutation[(index + 1) % 8][Int(digit)]]
        }
        return UInt8(inverse[check])
    }

    /// The values of ASCII digits, or nil if another character appears.
    static func digitValues(_ text: String) -> [UInt8]? {
        var values = [UInt8]()
        for byte in text.utf8 {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            values.append(byte - UInt8(ascii: "0"))
        }
        return values
    }

    private static let multiplication: [[Int]] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
        [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
        [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
        [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
        [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
        [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
        [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
        [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
        [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    ]

    /// Row k applies the base permutation `1 5 7 6 2 8 3 0 9 4` k times.
    private static let permutation: [[Int]] = {
        let base = [1, 5, 7, 6, 2, 8, 3, 0, 9, 4]
        var rows = [Array(0...9)]
        for _ in 1..<8 { rows.append(rows[rows.count - 1].map { base[$0] }) }
        return rows
    }()

    private static let inverse = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]
}
