import MatterCore
import MatterOnboarding
import MatterTestSupport
import Testing

@Suite struct ValidationTests {
    /// A valid payload to alter one field at a time.
    static let valid = SetupPayload(
        vendorID: VendorID(0xFFF1), productID: ProductID(0x8001), discoveryCapabilities: .onNetwork,
        discriminator: .long(3840), passcode: 20_202_021)

    private func expect(
        _ error: OnboardingError, _ mode: SetupPayload.ValidationMode = .produce,
        sourceLocation: SourceLocation = #_sourceLocation, _ change: (inout SetupPayload) -> Void
    ) {
        var payload = Self.valid
        change(&payload)
        #expect(throws: error, sourceLocation: sourceLocation) { try payload.validate(mode) }
    }

    @Test func validPayloadPasses() throws {
        try Self.valid.validate()
        try Self.valid.validate(.consume)
        #expect(Self.valid.isValid())
    }

    @Test(arguments: SetupPasscode.disallowed.sorted())
    func disallowedPasscodesAreRejected(_ passcode: UInt32) {
        expect(.passcodeNotAllowed(passcode)) { $0.passcode = passcode }
        expect(.passcodeNotAllowed(passcode), .consume) { $0.passcode = passcode }
        #expect(!SetupPasscode.isValid(passcode))
    }

    @Test func passcodeRange() throws {
        expect(.passcodeOutOfRange(0)) { $0.passcode = 0 }
        expect(.passcodeOutOfRange(99_999_999)) { $0.passcode = 99_999_999 }
        expect(.passcodeOutOfRange(123_456_780)) { $0.passcode = 123_456_780 }
        for passcode: UInt32 in [1, 99_999_998, 20_202_021, 12_345_679] {
            #expect(SetupPasscode.isValid(passcode))
            try SetupPasscode.validate(passcode)
        }
    }

    @Test func passcodeErrorReadsAsASentence() {
        #expect(OnboardingError.passcodeNotAllowed(11_111_111).description == "passcode 11111111 is not allowed")
    }

    @Test func discriminatorRange() throws {
        expect(.discriminatorOutOfRange(4096)) { $0.discriminator = .long(4096) }
        expect(.shortDiscriminatorOutOfRange(16)) { $0.discriminator = .short(16) }
        var payload = Self.valid
        payload.discriminator = .long(4095)
        try payload.validate()
        payload.discriminator = .short(15)
        try payload.validate()
    }

    @Test func vendorAndProductIDs() throws {
        expect(.invalidVendorID(0xFFF5)) { $0.vendorID = VendorID(0xFFF5) }
        expect(.invalidVendorID(0xFFFF), .consume) { $0.vendorID = VendorID(0xFFFF) }
        expect(.missingProductID(vendorID: 0xFFF1)) { $0.productID = ProductID(0) }
        var payload = Self.valid
        payload.vendorID = VendorID(0xFFF4)
        try payload.validate()
        payload.vendorID = VendorID(0)
        payload.productID = ProductID(0)
        try payload.validate()
        payload.productID = ProductID(5)
        try payload.validate()
    }

    @Test func reservedFlowAndVersion() {
        expect(.reservedCommissioningFlow) { $0.commissioningFlow = .reserved }
        expect(.unsupportedVersion(1)) { $0.version = 1 }
        expect(.unsupportedVersion(1), .consume) { $0.version = 1 }
    }

    @Test func unknownDiscoveryBitsOnlyMatterWhenProducing() throws {
        expect(.unknownDiscoveryCapabilities(0xC0)) {
            $0.discoveryCapabilities = DiscoveryCapabilities(rawValue: 0xC2)
        }
        var payload = Self.valid
        payload.discoveryCapabilities = DiscoveryCapabilities(rawValue: 0xC2)
        try payload.validate(.consume)
        payload.discoveryCapabilities = .known
        try payload.validate()
        payload.discoveryCapabilities = nil
        try payload.validate()
    }

    @Test func optionalDataRanges() throws {
        expect(.serialNumberTooLong(byteCount: 33)) { $0.serialNumber = .string(String(repeating: "S", count: 33)) }
        expect(.pbkdfIterationsOutOfRange(999)) { $0.pbkdfIterations = 999 }
        expect(.pbkdfIterationsOutOfRange(100_001)) { $0.pbkdfIterations = 100_001 }
        expect(.pbkdfSaltLengthOutOfRange(15)) { $0.pbkdfSalt = Array(repeating: 1, count: 15) }
        expect(.pbkdfSaltLengthOutOfRange(33)) { $0.pbkdfSalt = Array(repeating: 1, count: 33) }
        expect(.numberOfDevicesOutOfRange(0)) { $0.numberOfDevices = 0 }
        expect(.invalidOptionalDataTag(0x05)) { $0.additionalElements = [OptionalDataElement(tag: 0x05, .unsigned(1))] }
        expect(.duplicateOptionalDataTag(0x81)) {
            $0.additionalElements = [
                OptionalDataElement(tag: 0x81, .unsigned(1)), OptionalDataElement(tag: 0x81, .utf8("x")),
            ]
        }
        var payload = Self.valid
        payload.serialNumber = .string(String(repeating: "S", count: 32))
        payload.pbkdfIterations = 100_000
        payload.pbkdfSalt = Array(repeating: 1, count: 32)
        payload.numberOfDevices = 255
        payload.commissioningTimeout = 0xFFFF
        payload.additionalElements = [OptionalDataElement(tag: 0x80, .signed(-1))]
        try payload.validate()
        // Consume mode does not judge the optional data.
        payload.pbkdfIterations = 1
        try payload.validate(.consume)
    }

    @Test func generatorsValidateByDefault() {
        var payload = Self.valid
        payload.passcode = 11_111_111
        #expect(throws: OnboardingError.passcodeNotAllowed(11_111_111)) { try SetupQRCode.encode(payload) }
        #expect(throws: OnboardingError.passcodeNotAllowed(11_111_111)) { try ManualPairingCode.encode(payload) }
    }

    @Test func randomPasscodesAndDiscriminatorsAreValid() throws {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<1000 {
            let passcode = SetupPasscode.random(using: &generator)
            try SetupPasscode.validate(passcode)
            let discriminator = SetupDiscriminator.random(using: &generator)
            #expect((discriminator.longValue ?? .max) <= SetupDiscriminator.maxLong)
        }
    }

    @Test func shortDiscriminatorMatching() {
        #expect(SetupDiscriminator.short(15).matches(3840))
        #expect(SetupDiscriminator.short(15).matches(4095))
        #expect(!SetupDiscriminator.short(15).matches(3839))
        #expect(SetupDiscriminator.long(3840).matches(3840))
        #expect(!SetupDiscriminator.long(3840).matches(3841))
        #expect(SetupDiscriminator.long(2976).shortValue == 11)
    }

    @Test func capabilityNames() {
        #expect(DiscoveryCapabilities([.ble, .onNetwork]).description == "BLE, on-network")
        #expect(DiscoveryCapabilities(rawValue: 0x41).description == "SoftAP, unknown 0x40")
        #expect(DiscoveryCapabilities().description == "none")
    }
}
