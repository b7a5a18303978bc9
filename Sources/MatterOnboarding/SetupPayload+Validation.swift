import MatterCore

extension SetupPayload {
    /// Which side applies the rules.
    public enum ValidationMode: Sendable {
        /// Generating a code: every rule, including known discovery bits only and the optional-data ranges.
        case produce
        /// A commissioner about to use a parsed payload: unknown discovery bits and the optional data
        /// are not judged (SDK "consume" mode).
        case consume
    }

    /// Checks the payload against the spec's rules, throwing the first violation.
    ///
    /// Both modes: version 0; vendor ID 0 or 1...0xFFF4; product ID 0 only with vendor ID 0; flow not
    /// reserved; discriminator within 12 bits (short: 4 bits); passcode in 1...99 999 998 and not trivial.
    /// Produce only: no unknown discovery bits; serial string ≤ 32 bytes; PBKDF iterations 1000...100000;
    /// salt 16...32 bytes; number of devices ≥ 1; additional elements use distinct vendor tags.
    public func validate(_ mode: ValidationMode = .produce) throws(OnboardingError) {
        guard version == 0 else { throw .unsupportedVersion(version) }
        let vid = vendorID.rawValue
        guard vid <= Self.maxVendorID else { throw .invalidVendorID(vid) }
        guard productID.rawValue != 0 || vid == 0 else { throw .missingProductID(vendorID: vid) }
        guard commissioningFlow != .reserved else { throw .reservedCommissioningFlow }
        if mode == .produce, let caps = discoveryCapabilities, caps.unknownBits != 0 {
            throw .unknownDiscoveryCapabilities(caps.unknownBits)
        }
        switch discriminator {
        case .long(let value):
            guard value <= SetupDiscriminator.maxLong else { throw .discriminatorOutOfRange(value) }
        case .short(let value):
            guard value <= SetupDiscriminator.maxShort else { throw .shortDiscriminatorOutOfRange(value) }
        }
        try SetupPasscode.validate(passcode)
        if mode == .produce { try validateOptionalData() }
    }

    /// True when ``validate(_:)`` would not throw.
    public func isValid(_ mode: ValidationMode = .produce) -> Bool {
        do {
            try validate(mode)
            return true
        } catch {
            return false
        }
    }

    /// Largest vendor ID a payload may carry (0xFFF1...0xFFF4 are the test vendors).
    public static let maxVendorID: UInt16 = 0xFFF4

    private func validateOptionalData() throws(OnboardingError) {
        if case .string(let text) = serialNumber, text.utf8.count > 32 {
            throw .serialNumberTooLong(byteCount: text.utf8.count)
        }
        if let iterations = pbkdfIterations, !(1000...100_000).contains(iterations) {
            throw .pbkdfIterationsOutOfRange(iterations)
        }
        if let salt = pbkdfSalt, !(16...32).contains(salt.count) {
            throw .pbkdfSaltLengthOutOfRange(salt.count)
        }
        if let devices = numberOfDevices, devices == 0 {
            throw .numberOfDevicesOutOfRange(devices)
        }
        var seen = Set<UInt8>()
        for element in additionalElements {
            guard element.isVendorSpecific else { throw .invalidOptionalDataTag(element.tag) }
            guard seen.insert(element.tag).inserted else { throw .duplicateOptionalDataTag(element.tag) }
        }
    }
}
