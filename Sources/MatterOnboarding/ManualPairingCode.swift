import MatterCore

/// The manual pairing code: 11 digits, or 21 when it carries vendor and product IDs.
///
/// | Chunk | Digits | Value |
/// |---|---|---|
/// | 1 | 1 | bits 0–1: `(shortDiscriminator >> 2) & 3`; bit 2: vendor/product IDs present |
/// | 2 | 5 | `(passcode & 0x3FFF) \| ((shortDiscriminator & 3) << 14)` |
/// | 3 | 4 | `passcode >> 14` |
/// | 4 | 5 | vendor ID (21-digit code only) |
/// | 5 | 5 | product ID (21-digit code only) |
/// | last | 1 | Verhoeff check digit of all preceding digits |
///
/// The generator writes the 21-digit form when the commissioning flow is not standard (as the SDK);
/// the parser sets the flow to custom for a 21-digit code and standard otherwise.
public enum ManualPairingCode {
    /// Digits in a code without vendor and product IDs.
    public static let shortLength = 11
    /// Digits in a code with vendor and product IDs.
    public static let longLength = 21

    private static let vendorProductFlag: UInt32 = 1 << 2

    // MARK: Generating

    /// The digits of the manual pairing code for `payload` (no separators).
    ///
    /// Unless `validating` is false, the payload is first checked with ``SetupPayload/validate(_:)``
    /// in produce mode; either way the passcode must fit 27 bits and the discriminator its range.
    /// Discovery capabilities and optional data are not part of a manual code.
    public static func encode(_ payload: SetupPayload, validating: Bool = true) throws(OnboardingError) -> String {
        if validating { try payload.validate(.produce) }
        switch payload.discriminator {
        case .long(let value) where value > SetupDiscriminator.maxLong: throw .discriminatorOutOfRange(value)
        case .short(let value) where value > SetupDiscriminator.maxShort: throw .shortDiscriminatorOutOfRange(value)
        default: break
        }
        let passcode = payload.passcode
        guard passcode >> UInt32(SetupPasscode.bitWidth) == 0 else {
            throw .valueTooWide(field: "passcode", value: UInt64(passcode), bits: SetupPasscode.bitWidth)
        }
        let short = UInt32(payload.discriminator.shortValue)
        let isLong = payload.commissioningFlow != .standard
        var digits = padded((short >> 2) & 0x3 | (isLong ? vendorProductFlag : 0), 1)
        digits += padded((passcode & 0x3FFF) | (short & 0x3) << 14, 5)
        digits += padded(passcode >> 14, 4)
        if isLong {
            digits += padded(UInt32(payload.vendorID.rawValue), 5)
            digits += padded(UInt32(payload.productID.rawValue), 5)
        }
        return digits + String(Verhoeff.checkDigit(Array(digits.utf8).map { $0 - UInt8(ascii: "0") }))
    }

    /// `code` grouped for display, separators removed first: 11 digits as `4-3-4` (`3497-011-2332`),
    /// 21 digits as `4-3-4-5-5` (`7497-011-2336-55213-27687`, the short code's groups then two of five).
    /// Other lengths are returned as bare digits.
    public static func formatted(_ code: String) -> String {
        let digits = Array(code.filter(\.isASCIIDigit))
        let groups: [Int]
        switch digits.count {
        case shortLength: groups = [4, 3, 4]
        case longLength: groups = [4, 3, 4, 5, 5]
        default: return String(digits)
        }
        var parts = [String]()
        var start = 0
        for size in groups {
            parts.append(String(digits[start..<start + size]))
            start += size
        }
        return parts.joined(separator: "-")
    }

    // MARK: Parsing

    /// Parses a manual pairing code. Every character other than an ASCII digit is dropped first
    /// (users type dashes and spaces). Checks, in order: 11 or 21 digits; first digit not 8 or 9;
    /// the check digit; the length announced by the first digit; field ranges; passcode not 0.
    ///
    /// The result has a short discriminator, no discovery capabilities, vendor and product IDs 0 for
    /// an 11-digit code, and flow standard (11 digits) or custom (21 digits). Other passcode rules are
    /// left to ``SetupPayload/validate(_:)``.
    public static func parse(_ text: String) throws(OnboardingError) -> SetupPayload {
        let digitText = String(text.filter(\.isASCIIDigit))
        let digits = Array(digitText.utf8).map { UInt32($0 - UInt8(ascii: "0")) }
        guard digits.count == shortLength || digits.count == longLength else {
            throw .invalidManualCodeLength(digits.count)
        }
        guard digits[0] < 8 else { throw .reservedManualCodeVersion(firstDigit: Int(digits[0])) }
        let body = digits.dropLast().map { UInt8($0) }
        let expected = Verhoeff.checkDigit(body)
        if let found = digits.last, UInt32(expected) != found {
            throw .checkDigitMismatch(expected: digitCharacter(UInt32(expected)), found: digitCharacter(found))
        }
        let isLong = digits[0] & vendorProductFlag != 0
        let announced = isLong ? longLength : shortLength
        guard digits.count == announced else {
            throw .manualCodeLengthMismatch(digits: digits.count, expected: announced)
        }
        func number(_ start: Int, _ count: Int) -> UInt32 {
            digits[start..<start + count].reduce(0) { $0 * 10 + $1 }
        }
        let chunk1 = number(0, 1)
        let chunk2 = number(1, 5)
        let chunk3 = number(6, 4)
        guard chunk2 <= 0xFFFF else { throw .manualCodeFieldOutOfRange(field: "digits 2-6", value: chunk2) }
        guard chunk3 <= 0x1FFF else { throw .manualCodeFieldOutOfRange(field: "digits 7-10", value: chunk3) }
        let short = UInt8((chunk1 & 0x3) << 2 | chunk2 >> 14)
        let passcode = chunk3 << 14 | chunk2 & 0x3FFF
        guard passcode != 0 else { throw .passcodeOutOfRange(0) }
        var payload = SetupPayload(
            commissioningFlow: isLong ? .custom : .standard, discriminator: .short(short), passcode: passcode)
        if isLong {
            let vendor = number(10, 5)
            let product = number(15, 5)
            guard vendor <= 0xFFFF else { throw .manualCodeFieldOutOfRange(field: "vendor ID", value: vendor) }
            guard product <= 0xFFFF else { throw .manualCodeFieldOutOfRange(field: "product ID", value: product) }
            payload.vendorID = VendorID(UInt16(vendor))
            payload.productID = ProductID(UInt16(product))
        }
        return payload
    }

    private static func padded(_ value: UInt32, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func digitCharacter(_ value: UInt32) -> Character {
        Character(Unicode.Scalar(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)))
    }
}

extension Character {
    /// `0`...`9` only (not other Unicode digits).
    fileprivate var isASCIIDigit: Bool {
        guard let ascii = asciiValue else { return false }
        return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(ascii)
    }
}
