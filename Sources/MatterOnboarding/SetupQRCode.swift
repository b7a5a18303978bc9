internal import MatterCore

/// The QR-code form of onboarding payloads: `MT:` followed by the base38 text of each payload's
/// bytes, several payloads separated by `*` (prefix written once).
///
/// Payload bytes: 88 bits read as one little-endian integer, then optional TLV data from byte 11.
///
/// | Bit offset | Width | Field |
/// |---|---|---|
/// | 0 | 3 | version |
/// | 3 | 16 | vendor ID |
/// | 19 | 16 | product ID |
/// | 35 | 2 | commissioning flow |
/// | 37 | 8 | discovery capabilities |
/// | 45 | 12 | discriminator (long) |
/// | 57 | 27 | passcode |
/// | 84 | 4 | padding, 0 |
/// | 88 | 8·n | optional TLV data (see ``SetupPayload``) |
public enum SetupQRCode {
    /// The prefix of every Matter QR code.
    public static let prefix = "MT:"
    /// Separates payloads in a QR code carrying several.
    public static let payloadSeparator: Character = "*"
    /// Bytes of fixed fields before the optional data.
    public static let fixedByteCount = 11

    // MARK: Generating

    /// The QR-code text of one payload. Unless `validating` is false the payload is first checked
    /// with ``SetupPayload/validate(_:)`` in produce mode. Either way a QR code needs discovery
    /// capabilities and a long discriminator, and every value must fit its bit field.
    public static func encode(_ payload: SetupPayload, validating: Bool = true) throws(OnboardingError) -> String {
        try encode([payload], validating: validating)
    }

    /// The QR-code text carrying several payloads, `MT:` + base38 of each joined by `*`.
    /// An empty list gives just the prefix.
    public static func encode(_ payloads: [SetupPayload], validating: Bool = true) throws(OnboardingError) -> String {
        var parts = [String]()
        for payload in payloads {
            parts.append(Base38.encode(try bytes(of: payload, validating: validating)))
        }
        return prefix + parts.joined(separator: String(payloadSeparator))
    }

    /// The payload bytes (11 fixed bytes, then optional TLV data) before base38 encoding.
    public static func bytes(of payload: SetupPayload, validating: Bool = true) throws(OnboardingError) -> [UInt8] {
        if validating { try payload.validate(.produce) }
        guard let capabilities = payload.discoveryCapabilities else { throw .missingDiscoveryCapabilities }
        guard case .long(let discriminator) = payload.discriminator else { throw .shortDiscriminatorInQRCode }
        try checkWidth("version", UInt64(payload.version), Field.version.width)
        try checkWidth("discriminator", UInt64(discriminator), Field.discriminator.width)
        try checkWidth("passcode", UInt64(payload.passcode), Field.passcode.width)

        var bits = UInt128(0)
        bits |= UInt128(payload.version) << Field.version.offset
        bits |= UInt128(payload.vendorID.rawValue) << Field.vendorID.offset
        bits |= UInt128(payload.productID.rawValue) << Field.productID.offset
        bits |= UInt128(payload.commissioningFlow.rawValue) << Field.flow.offset
        bits |= UInt128(capabilities.rawValue) << Field.capabilities.offset
        bits |= UInt128(discriminator) << Field.discriminator.offset
        bits |= UInt128(payload.passcode) << Field.passcode.offset
        var out = (0..<fixedByteCount).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) }
        out += OptionalDataCodec.encode(payload)
        return out
    }

    // MARK: Parsing

    /// Parses QR-code text into its payloads (one per `*`-separated part, at least one).
    ///
    /// Surrounding whitespace is ignored. The `MT:` text may also be embedded between `%` separators
    /// (`Z%MT:ABC%DDD`): the first `%`-separated segment starting with `MT:` is used, as the SDK does.
    /// Fields are decoded without being judged (run ``SetupPayload/validate(_:)`` before use); the
    /// padding bits must be zero and optional data must be well-formed TLV. An error in one payload
    /// of several is wrapped in ``OnboardingError/invalidPayloadInQRCode(index:count:_:)``.
    public static func parse(_ text: String) throws(OnboardingError) -> [SetupPayload] {
        let characters = Array(text)
        guard let (start, end) = extractPayloadRange(characters) else { throw .missingQRCodePrefix }
        var parts = [(start: Int, end: Int)]()
        var partStart = start
        for index in start..<end where characters[index] == payloadSeparator {
            parts.append((partStart, index))
            partStart = index + 1
        }
        parts.append((partStart, end))
        var payloads = [SetupPayload]()
        for (index, part) in parts.enumerated() {
            do {
                let bytes = try Base38.decode(Array(characters[part.start..<part.end]), positionOffset: part.start)
                payloads.append(try payload(fromBytes: bytes))
            } catch {
                throw parts.count == 1 ? error : .invalidPayloadInQRCode(index: index, count: parts.count, error)
            }
        }
        return payloads
    }

    /// Decodes payload bytes (11 fixed bytes, then optional TLV data).
    public static func payload(fromBytes bytes: [UInt8]) throws(OnboardingError) -> SetupPayload {
        var payload = try fixedFields(bytes)
        if bytes.count > fixedByteCount {
            try OptionalDataCodec.decode(Array(bytes[fixedByteCount...]), into: &payload)
        }
        return payload
    }

    /// Decodes only the 11 fixed bytes, ignoring what follows.
    static func fixedFields(_ bytes: [UInt8]) throws(OnboardingError) -> SetupPayload {
        guard bytes.count >= fixedByteCount else { throw .qrPayloadTooShort(byteCount: bytes.count) }
        let bits = bytes[0..<fixedByteCount].reversed().reduce(UInt128(0)) { $0 << 8 | UInt128($1) }
        func field(_ field: Field) -> UInt64 {
            UInt64(truncatingIfNeeded: bits >> field.offset) & ((1 << UInt64(field.width)) - 1)
        }
        let padding = field(.padding)
        guard padding == 0 else { throw .nonZeroPadding(UInt8(truncatingIfNeeded: padding)) }
        return SetupPayload(
            version: UInt8(truncatingIfNeeded: field(.version)),
            vendorID: VendorID(UInt16(truncatingIfNeeded: field(.vendorID))),
            productID: ProductID(UInt16(truncatingIfNeeded: field(.productID))),
            commissioningFlow: CommissioningFlow(rawValue: UInt8(truncatingIfNeeded: field(.flow))) ?? .reserved,
            discoveryCapabilities: DiscoveryCapabilities(rawValue: UInt8(truncatingIfNeeded: field(.capabilities))),
            discriminator: .long(UInt16(truncatingIfNeeded: field(.discriminator))),
            passcode: UInt32(truncatingIfNeeded: field(.passcode)))
    }

    /// The range of the base38 text (after `MT:`) within `characters`: surrounding whitespace is
    /// dropped, then the first `%`-separated segment that starts with `MT:` and has text after it is used.
    static func extractPayloadRange(_ characters: [Character]) -> (start: Int, end: Int)? {
        var lower = 0
        var upper = characters.count
        while lower < upper, characters[lower].isWhitespace { lower += 1 }
        while upper > lower, characters[upper - 1].isWhitespace { upper -= 1 }
        let prefixCharacters = Array(prefix)
        var segmentStart = lower
        while segmentStart <= upper {
            var segmentEnd = segmentStart
            while segmentEnd < upper, characters[segmentEnd] != "%" { segmentEnd += 1 }
            let textStart = segmentStart + prefixCharacters.count
            if textStart < segmentEnd, Array(characters[segmentStart..<textStart]) == prefixCharacters {
                return (textStart, segmentEnd)
            }
            segmentStart = segmentEnd + 1
        }
        return nil
    }

    private static func checkWidth(_ name: String, _ value: UInt64, _ bits: Int) throws(OnboardingError) {
        guard value >> UInt64(bits) == 0 else { throw .valueTooWide(field: name, value: value, bits: bits) }
    }

    /// Bit offset and width of each fixed field.
    enum Field {
        case version, vendorID, productID, flow, capabilities, discriminator, passcode, padding

        var offset: Int {
            switch self {
            case .version: 0
            case .vendorID: 3
            case .productID: 19
            case .flow: 35
            case .capabilities: 37
            case .discriminator: 45
            case .passcode: 57
            case .padding: 84
            }
        }

        var width: Int {
            switch self {
            case .version: 3
            case .vendorID, .productID: 16
            case .flow: 2
            case .capabilities: 8
            case .discriminator: 12
            case .passcode: 27
            case .padding: 4
            }
        }
    }
}
