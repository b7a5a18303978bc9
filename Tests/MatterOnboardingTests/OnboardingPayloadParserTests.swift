import MatterOnboarding
import MatterTestSupport
import Testing

@Suite struct OnboardingPayloadParserTests {
    @Test func recognisesQRCodes() throws {
        let result = try OnboardingPayloadParser.parse("MT:-24J0AFN00KA0648G00")
        #expect(result.format == .qrCode)
        #expect(result.payload == OnboardingVectors.qrCodes[1].payload)
        #expect(result.payloads == [OnboardingVectors.qrCodes[1].payload])
    }

    @Test func recognisesMultiPayloadQRCodes() throws {
        let result = try OnboardingPayloadParser.parse("  MT:YNJV7VSC00CMVH7SR00*-24J0AFN00KA0648G00 ")
        #expect(result.payloads == [OnboardingVectors.qrCodes[5].payload, OnboardingVectors.qrCodes[1].payload])
        #expect(result.payload == OnboardingVectors.qrCodes[5].payload)
    }

    @Test func recognisesEmbeddedQRCodes() throws {
        let result = try OnboardingPayloadParser.parse("Z%MT:M5L90MP500K64J00000%DDD")
        #expect(result.format == .qrCode)
        #expect(result.payload == OnboardingVectors.qrCodes[0].payload)
    }

    @Test(arguments: ["34970112332", "3497-011-2332", " 3497 011 2332\n", "749701123365521327687"])
    func recognisesManualCodes(_ text: String) throws {
        let result = try OnboardingPayloadParser.parse(text)
        #expect(result.format == .manualPairingCode)
        #expect(result.payloads.count == 1)
        #expect(result.payload.passcode == 20_202_021)
        #expect(result.payload.discriminator == .short(15))
    }

    @Test(arguments: ["", "   ", "\n"])
    func rejectsEmptyInput(_ text: String) {
        #expect(throws: OnboardingError.emptyInput) { try OnboardingPayloadParser.parse(text) }
    }

    @Test(arguments: ["hello", "3497-O11-2332", "MX:1234", "---"])
    func rejectsUnrecognisedText(_ text: String) {
        #expect(throws: OnboardingError.unrecognizedCode) { try OnboardingPayloadParser.parse(text) }
    }

    @Test func passesOnSpecificErrors() {
        #expect(throws: OnboardingError.invalidBase38Character("a", position: 3)) {
            try OnboardingPayloadParser.parse("MT:abc")
        }
        #expect(throws: OnboardingError.checkDigitMismatch(expected: "2", found: "1")) {
            try OnboardingPayloadParser.parse("3497-011-2331")
        }
        #expect(throws: OnboardingError.invalidManualCodeLength(10)) { try OnboardingPayloadParser.parse("3497011233") }
        #expect(throws: OnboardingError.missingQRCodePrefix) { try OnboardingPayloadParser.parse("MT:") }
    }
}
