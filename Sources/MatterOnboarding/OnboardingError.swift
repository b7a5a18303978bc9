internal import MatterCore

/// Why an onboarding payload (QR code, manual pairing code, or the payload model) could not be
/// parsed, generated or accepted. Every case reads as a sentence through `description`.
///
/// Character positions are 0-based offsets (in `Character`s) into the string given to the parser.
public indirect enum OnboardingError: Error, Hashable, Sendable, CustomStringConvertible {
    // MARK: Input

    /// The input was empty (or only whitespace).
    case emptyInput
    /// The input is neither a QR code (`MT:...`) nor a manual pairing code (digits).
    case unrecognizedCode

    // MARK: Base38

    /// A character outside the base38 alphabet `0-9 A-Z - .` (lower case is not accepted).
    case invalidBase38Character(Character, position: Int)
    /// Base38 text whose length leaves a final group of 1 or 3 characters.
    case invalidBase38Length(Int)
    /// A base38 group whose value does not fit the bytes it stands for (e.g. `S6` = 256 in one byte).
    case base38ValueOutOfRange(group: String, position: Int)

    // MARK: QR code

    /// No `MT:` followed by a payload (also looked for between `%` separators).
    case missingQRCodePrefix
    /// A QR payload shorter than the 11 bytes of fixed fields.
    case qrPayloadTooShort(byteCount: Int)
    /// The 4 padding bits after the passcode are not zero.
    case nonZeroPadding(UInt8)
    /// The bytes after the fixed fields are not the expected TLV (reason given).
    case invalidOptionalData(String)
    /// One payload of a QR code holding several (`*`-separated) is invalid; `index` is 0-based.
    case invalidPayloadInQRCode(index: Int, count: Int, OnboardingError)

    // MARK: Manual pairing code

    /// A manual pairing code must have 11 or 21 digits once separators are removed.
    case invalidManualCodeLength(Int)
    /// The first digit is 8 or 9: reserved for a future version of the code.
    case reservedManualCodeVersion(firstDigit: Int)
    /// The Verhoeff check digit (last digit) does not match the other digits.
    case checkDigitMismatch(expected: Character, found: Character)
    /// The vendor/product-ID flag in the first digit disagrees with the code's length.
    case manualCodeLengthMismatch(digits: Int, expected: Int)
    /// A digit group decodes to more than its field can hold (e.g. a vendor ID above 65535).
    case manualCodeFieldOutOfRange(field: String, value: UInt32)

    // MARK: Payload validation (and field widths when generating)

    /// Only version 0 exists.
    case unsupportedVersion(UInt8)
    /// Vendor ID must be 0 (unspecified) or 0x0001...0xFFF4.
    case invalidVendorID(UInt16)
    /// Product ID 0 is only allowed together with vendor ID 0.
    case missingProductID(vendorID: UInt16)
    /// Commissioning flow 3 is reserved.
    case reservedCommissioningFlow
    /// A QR code needs the discovery capabilities (a payload from a manual code has none).
    case missingDiscoveryCapabilities
    /// Discovery-capability bits this implementation does not know (not allowed when producing).
    case unknownDiscoveryCapabilities(UInt8)
    /// A long discriminator above 4095.
    case discriminatorOutOfRange(UInt16)
    /// A short discriminator above 15.
    case shortDiscriminatorOutOfRange(UInt8)
    /// A QR code carries the full 12-bit discriminator; a short one (from a manual code) cannot be used.
    case shortDiscriminatorInQRCode
    /// Passcode 0 or above 99 999 998.
    case passcodeOutOfRange(UInt32)
    /// A passcode on the spec's list of trivial passcodes (11111111, 12345678, ...).
    case passcodeNotAllowed(UInt32)
    /// A value wider than its bit field in the encoded payload.
    case valueTooWide(field: String, value: UInt64, bits: Int)
    /// A serial number string longer than 32 bytes.
    case serialNumberTooLong(byteCount: Int)
    /// PBKDF iterations outside 1000...100000.
    case pbkdfIterationsOutOfRange(UInt32)
    /// PBKDF salt length outside 16...32 bytes.
    case pbkdfSaltLengthOutOfRange(Int)
    /// Number of devices 0 (must be 1...255).
    case numberOfDevicesOutOfRange(UInt8)
    /// An additional optional-data element uses a Matter-common tag (0x00–0x7F); vendor tags are 0x80–0xFF.
    case invalidOptionalDataTag(UInt8)
    /// Two optional-data elements with the same tag.
    case duplicateOptionalDataTag(UInt8)

    public var description: String {
        switch self {
        case .emptyInput:
            "no onboarding code given"
        case .unrecognizedCode:
            "not a Matter onboarding code: expected a QR code starting with 'MT:' or an 11- or 21-digit manual pairing code"
        case .invalidBase38Character(let character, let position):
            "invalid base38 character '\(character)' at position \(position)"
        case .invalidBase38Length(let length):
            "invalid base38 length \(length): the last group would have \(length % 5) character(s) (2, 4 or 5 expected)"
        case .base38ValueOutOfRange(let group, let position):
            "base38 group '\(group)' at position \(position) is too large for the \(group.count == 2 ? 1 : group.count == 4 ? 2 : 3) byte(s) it encodes"
        case .missingQRCodePrefix:
            "not a Matter QR code: it must start with 'MT:' followed by the payload"
        case .qrPayloadTooShort(let count):
            "QR code payload is \(count) byte(s) long, at least 11 are needed"
        case .nonZeroPadding(let bits):
            "QR code payload padding bits are not zero (0x\(String(bits, radix: 16)))"
        case .invalidOptionalData(let reason):
            "QR code optional data is invalid: \(reason)"
        case .invalidPayloadInQRCode(let index, let count, let error):
            "payload \(index + 1) of \(count) in the QR code: \(error)"
        case .invalidManualCodeLength(let count):
            "manual pairing code has \(count) digit(s), expected 11 or 21"
        case .reservedManualCodeVersion(let digit):
            "manual pairing code starts with \(digit): codes starting with 8 or 9 are reserved for a future version"
        case .checkDigitMismatch(let expected, let found):
            "check digit mismatch: the last digit is \(found) but the others give \(expected) (mistyped code?)"
        case .manualCodeLengthMismatch(let digits, let expected):
            "manual pairing code has \(digits) digits but its first digit announces a \(expected)-digit code"
        case .manualCodeFieldOutOfRange(let field, let value):
            "manual pairing code \(field) \(value) is out of range"
        case .unsupportedVersion(let version):
            "payload version \(version) is not supported (only 0)"
        case .invalidVendorID(let vid):
            "vendor ID \(vid) (0x\(hexDigits(vid, width: 4))) is invalid: use 0 or 1...65524 (0xFFF1...0xFFF4 are test vendors)"
        case .missingProductID(let vid):
            "product ID 0 is only allowed with vendor ID 0 (vendor ID is \(vid))"
        case .reservedCommissioningFlow:
            "commissioning flow 3 is reserved"
        case .missingDiscoveryCapabilities:
            "a QR code needs discovery capabilities (BLE, on-network, ...), the payload has none"
        case .unknownDiscoveryCapabilities(let bits):
            "unknown discovery capability bits 0x\(String(bits, radix: 16))"
        case .discriminatorOutOfRange(let value):
            "discriminator \(value) is out of range 0...4095"
        case .shortDiscriminatorOutOfRange(let value):
            "short discriminator \(value) is out of range 0...15"
        case .shortDiscriminatorInQRCode:
            "a QR code needs the full 12-bit discriminator, the payload only has the short one"
        case .passcodeOutOfRange(let passcode):
            "passcode \(passcode) is out of range 1...99999998"
        case .passcodeNotAllowed(let passcode):
            "passcode \(passcode) is not allowed"
        case .valueTooWide(let field, let value, let bits):
            "\(field) \(value) does not fit in \(bits) bits"
        case .serialNumberTooLong(let count):
            "serial number is \(count) bytes long, at most 32 are allowed"
        case .pbkdfIterationsOutOfRange(let value):
            "PBKDF iterations \(value) out of range 1000...100000"
        case .pbkdfSaltLengthOutOfRange(let count):
            "PBKDF salt is \(count) bytes long, 16...32 expected"
        case .numberOfDevicesOutOfRange(let value):
            "number of devices \(value) out of range 1...255"
        case .invalidOptionalDataTag(let tag):
            "optional data tag 0x\(hexDigits(tag, width: 2)) is a Matter-common tag; additional elements must use vendor tags 0x80...0xFF"
        case .duplicateOptionalDataTag(let tag):
            "optional data tag 0x\(hexDigits(tag, width: 2)) appears more than once"
        }
    }
}
