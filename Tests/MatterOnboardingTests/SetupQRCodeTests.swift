import MatterCore
import MatterTestSupport
import Testing

@testable import MatterOnboarding

@Suite struct SetupQRCodeTests {
    @Test(arguments: OnboardingVectors.qrCodes)
    func parsesVector(_ vector: OnboardingVectors.QRVector) throws {
        #expect(try SetupQRCode.parse(vector.code) == [vector.payload], "\(vector.source)")
    }

    @Test(arguments: OnboardingVectors.qrCodes)
    func encodesVector(_ vector: OnboardingVectors.QRVector) throws {
        #expect(try SetupQRCode.encode(vector.payload) == vector.code, "\(vector.source)")
    }

    @Test(arguments: OnboardingVectors.rawPayloads)
    func payloadBytesMatch(_ raw: (code: String, hex: String)) throws {
        let expected = try #require(Hex.decode(raw.hex))
        let payload = try #require(try SetupQRCode.parse(raw.code).first)
        #expect(try SetupQRCode.bytes(of: payload) == expected)
        #expect(try SetupQRCode.payload(fromBytes: expected) == payload)
    }

    @Test func serialNumberVectorCarriesItsTLV() throws {
        let vector = try #require(OnboardingVectors.qrCodes.last)
        let bytes = try SetupQRCode.bytes(of: vector.payload)
        #expect(Hex.encode(bytes[11...]) == "152c000a3132333435363738393018")
    }

    @Test func multiPayloadRoundTrips() throws {
        let first = OnboardingVectors.qrCodes[5]
        let second = OnboardingVectors.qrCodes[1]
        let code = "MT:YNJV7VSC00CMVH7SR00*-24J0AFN00KA0648G00"
        #expect(try SetupQRCode.encode([first.payload, second.payload]) == code)
        #expect(try SetupQRCode.parse(code) == [first.payload, second.payload])
        let withTLV = "MT:YNJV7VSC00CMVH7SR00*-24J0AFN00KA064IJ3P0IXZB0DK5N1K8SQ1RYCU1-A40*Y.K9042C00KA0648G00"
        let payloads = [first.payload, OnboardingVectors.qrCodes[6].payload, OnboardingVectors.qrCodes[3].payload]
        #expect(try SetupQRCode.encode(payloads) == withTLV)
        #expect(try SetupQRCode.parse(withTLV) == payloads)
    }

    @Test func sdkRejectsNonTLVOptionalData() throws {
        let error = try #require(throws: OnboardingError.self) {
            try SetupQRCode.parse(OnboardingVectors.sdkRejectedQRCode)
        }
        guard case .invalidOptionalData = error else {
            Issue.record("expected invalidOptionalData, got \(error)")
            return
        }
        // Its fixed part is the plain matter.js vector; only the 3 trailing bytes are wrong.
        let bytes = try Base38.decode(String(OnboardingVectors.sdkRejectedQRCode.dropFirst(3)))
        #expect(Array(bytes[11...]) == [0x01, 0x02, 0x03])
        #expect(try SetupQRCode.fixedFields(bytes) == OnboardingVectors.qrCodes[5].payload)
    }

    @Test func matterJSMultiPayloadFailsOnItsSecondPart() throws {
        let error = try #require(throws: OnboardingError.self) {
            try SetupQRCode.parse(OnboardingVectors.matterJSMultiPayload)
        }
        guard case .invalidPayloadInQRCode(index: 1, count: 2, .invalidOptionalData) = error else {
            Issue.record("expected the second payload's optional data to be rejected, got \(error)")
            return
        }
        #expect(error.description.hasPrefix("payload 2 of 2 in the QR code: QR code optional data is invalid"))
    }

    @Test func rejectsNonZeroPadding() {
        #expect(throws: OnboardingError.nonZeroPadding(0xD)) { try SetupQRCode.parse("MT:Y.K9042C00KA0648G01") }
    }

    @Test func rejectsBadBase38Length() {
        #expect(throws: OnboardingError.invalidBase38Length(18)) { try SetupQRCode.parse("MT:Y.K9042C00KA0648G0") }
    }

    @Test func reportsBadCharacterPositionInTheWholeInput() {
        #expect(throws: OnboardingError.invalidBase38Character("a", position: 7)) {
            try SetupQRCode.parse("MT:Y.K9a42C00KA0648G00")
        }
        #expect(throws: OnboardingError.invalidBase38Character("a", position: 9)) {
            try SetupQRCode.parse("  MT:Y.K9a42C00KA0648G00")
        }
        #expect(
            throws: OnboardingError.invalidPayloadInQRCode(
                index: 1, count: 2, .invalidBase38Character("a", position: 27))
        ) {
            try SetupQRCode.parse("MT:Y.K9042C00KA0648G00*Y.K9a42C00KA0648G00")
        }
    }

    @Test func rejectsShortPayloads() {
        #expect(throws: OnboardingError.qrPayloadTooShort(byteCount: 9)) { try SetupQRCode.parse("MT:Y.K9042C00KA064") }
        #expect(
            throws: OnboardingError.invalidPayloadInQRCode(index: 1, count: 2, .qrPayloadTooShort(byteCount: 0))
        ) {
            try SetupQRCode.parse("MT:Y.K9042C00KA0648G00*")
        }
    }

    @Test(arguments: ["", "MT:", "M5L90MP500K64J00000", "mt:M5L90MP500K64J00000", "X MT:M5L90MP500K64J00000"])
    func rejectsTextWithoutPrefix(_ text: String) {
        #expect(throws: OnboardingError.missingQRCodePrefix) { try SetupQRCode.parse(text) }
    }

    @Test(arguments: [
        "Z%MT:M5L90MP500K64J00000%DDD",
        "MT:M5L90MP500K64J00000%",
        "%MT:%MT:M5L90MP500K64J00000",
        "  MT:M5L90MP500K64J00000\n",
    ])
    func extractsPayloadEmbeddedBetweenPercentSigns(_ text: String) throws {
        #expect(try SetupQRCode.parse(text) == [OnboardingVectors.qrCodes[0].payload])
    }

    @Test func decodesFieldsWithoutJudgingThem() throws {
        // Passcode 12345678 (disallowed), flow 3 (reserved), unknown capability bit 0x80, vendor 0xFFFF.
        let payload = SetupPayload(
            vendorID: VendorID(0xFFFF), productID: ProductID(0), commissioningFlow: .reserved,
            discoveryCapabilities: DiscoveryCapabilities(rawValue: 0x82), discriminator: .long(4095),
            passcode: 12_345_678)
        let code = try SetupQRCode.encode(payload, validating: false)
        #expect(try SetupQRCode.parse(code) == [payload])
        #expect(throws: OnboardingError.invalidVendorID(0xFFFF)) { try SetupQRCode.encode(payload) }
    }

    @Test func generatingNeedsCapabilitiesAndLongDiscriminator() throws {
        let manual = try ManualPairingCode.parse("34970112332")
        #expect(throws: OnboardingError.missingDiscoveryCapabilities) { try SetupQRCode.encode(manual) }
        var withCapabilities = manual
        withCapabilities.discoveryCapabilities = .onNetwork
        #expect(throws: OnboardingError.shortDiscriminatorInQRCode) {
            try SetupQRCode.encode(withCapabilities, validating: false)
        }
    }

    @Test func generatingWithoutValidationStillChecksFieldWidths() {
        var payload = OnboardingVectors.qrCodes[1].payload
        payload.passcode = 1 << 27
        #expect(throws: OnboardingError.valueTooWide(field: "passcode", value: 1 << 27, bits: 27)) {
            try SetupQRCode.encode(payload, validating: false)
        }
        payload = OnboardingVectors.qrCodes[1].payload
        payload.discriminator = .long(4096)
        #expect(throws: OnboardingError.valueTooWide(field: "discriminator", value: 4096, bits: 12)) {
            try SetupQRCode.encode(payload, validating: false)
        }
        payload = OnboardingVectors.qrCodes[1].payload
        payload.version = 8
        #expect(throws: OnboardingError.valueTooWide(field: "version", value: 8, bits: 3)) {
            try SetupQRCode.encode(payload, validating: false)
        }
    }

    @Test func versionFieldIsDecoded() throws {
        var payload = OnboardingVectors.qrCodes[1].payload
        payload.version = 5
        let code = try SetupQRCode.encode(payload, validating: false)
        #expect(try SetupQRCode.parse(code).first?.version == 5)
        #expect(throws: OnboardingError.unsupportedVersion(5)) { try SetupQRCode.encode(payload) }
    }
}
