import MatterCore
import MatterOnboarding
import MatterTestSupport
import Testing

@Suite struct ManualPairingCodeTests {
    private func expectedPayload(_ vector: OnboardingVectors.ManualVector) -> SetupPayload {
        var payload = SetupPayload(discriminator: .short(vector.shortDiscriminator), passcode: vector.passcode)
        if let ids = vector.vendorProduct {
            payload.commissioningFlow = .custom
            payload.vendorID = VendorID(ids.vid)
            payload.productID = ProductID(ids.pid)
        }
        return payload
    }

    @Test(arguments: OnboardingVectors.manualCodes)
    func parsesVector(_ vector: OnboardingVectors.ManualVector) throws {
        #expect(try ManualPairingCode.parse(vector.code) == expectedPayload(vector), "\(vector.source)")
    }

    @Test(arguments: OnboardingVectors.manualCodes)
    func encodesVectorFromShortAndLongDiscriminator(_ vector: OnboardingVectors.ManualVector) throws {
        var payload = expectedPayload(vector)
        let validating = vector.passcodeValid
        #expect(try ManualPairingCode.encode(payload, validating: validating) == vector.code, "\(vector.source)")
        payload.discriminator = .long(vector.longDiscriminator)
        payload.discoveryCapabilities = .ble
        #expect(try ManualPairingCode.encode(payload, validating: validating) == vector.code, "\(vector.source)")
    }

    @Test(arguments: OnboardingVectors.manualCodes.filter { !$0.passcodeValid })
    func codecOnlyVectorsFailValidation(_ vector: OnboardingVectors.ManualVector) throws {
        let error = try #require(throws: OnboardingError.self) {
            try ManualPairingCode.encode(expectedPayload(vector))
        }
        #expect(error == .passcodeNotAllowed(vector.passcode) || error == .passcodeOutOfRange(vector.passcode))
    }

    @Test func standardFlowGivesShortCodeEvenWithVendorID() throws {
        let payload = SetupPayload(
            vendorID: VendorID(0xFFF1), productID: ProductID(0x8000), discoveryCapabilities: .ble,
            discriminator: .long(3840), passcode: 20_202_021)
        #expect(try ManualPairingCode.encode(payload) == "34970112332")
        var userAction = payload
        userAction.commissioningFlow = .userActionRequired
        #expect(try ManualPairingCode.encode(userAction) == "749701123365521327687")
    }

    @Test func stripsSeparatorsBeforeParsing() throws {
        let expected = try ManualPairingCode.parse("34970112332")
        for text in ["3497-011-2332", " 3497 011 2332 ", "3497.011.2332\n", "MPC: 3497-0112-332"] {
            #expect(try ManualPairingCode.parse(text) == expected, "\(text)")
        }
    }

    @Test func rejectsWrongCheckDigit() throws {
        #expect(throws: OnboardingError.checkDigitMismatch(expected: "2", found: "1")) {
            try ManualPairingCode.parse("34970112331")
        }
        let error = try #require(throws: OnboardingError.self) { try ManualPairingCode.parse("34970112331") }
        #expect(error.description.hasPrefix("check digit mismatch"))
    }

    @Test(arguments: ["3497011233", "", "349701123321", "74970112336552132768"])
    func rejectsWrongLength(_ code: String) {
        #expect(throws: OnboardingError.invalidManualCodeLength(code.count)) { try ManualPairingCode.parse(code) }
    }

    @Test(arguments: ["84970112332", "94970112332", "849701123365521327687"])
    func rejectsReservedFirstDigit(_ code: String) throws {
        let digit = Int(String(code.prefix(1))) ?? -1
        #expect(throws: OnboardingError.reservedManualCodeVersion(firstDigit: digit)) {
            try ManualPairingCode.parse(code)
        }
    }

    @Test func rejectsLengthDisagreeingWithVendorProductFlag() throws {
        let elevenWithFlag = try withCheckDigit("7497011233")
        #expect(throws: OnboardingError.manualCodeLengthMismatch(digits: 11, expected: 21)) {
            try ManualPairingCode.parse(elevenWithFlag)
        }
        let twentyOneWithoutFlag = try withCheckDigit("34970112336552132768")
        #expect(throws: OnboardingError.manualCodeLengthMismatch(digits: 21, expected: 11)) {
            try ManualPairingCode.parse(twentyOneWithoutFlag)
        }
    }

    @Test func rejectsZeroPasscode() throws {
        let code = try withCheckDigit("0000000000")
        #expect(throws: OnboardingError.passcodeOutOfRange(0)) { try ManualPairingCode.parse(code) }
    }

    @Test func rejectsFieldsBeyondTheirBits() throws {
        #expect(throws: OnboardingError.manualCodeFieldOutOfRange(field: "vendor ID", value: 99999)) {
            try ManualPairingCode.parse(try withCheckDigit("74970112339999932768"))
        }
        #expect(throws: OnboardingError.manualCodeFieldOutOfRange(field: "product ID", value: 70000)) {
            try ManualPairingCode.parse(try withCheckDigit("74970112336552170000"))
        }
        #expect(throws: OnboardingError.manualCodeFieldOutOfRange(field: "digits 2-6", value: 99999)) {
            try ManualPairingCode.parse(try withCheckDigit("3999991233"))
        }
        #expect(throws: OnboardingError.manualCodeFieldOutOfRange(field: "digits 7-10", value: 9999)) {
            try ManualPairingCode.parse(try withCheckDigit("3497019999"))
        }
    }

    @Test func parsesWithoutJudgingThePasscode() throws {
        // 12345678 is on the disallowed list, yet the code decodes (validation is a separate step).
        let payload = try ManualPairingCode.parse("00852607537")
        #expect(payload.passcode == 12_345_678)
        #expect(throws: OnboardingError.passcodeNotAllowed(12_345_678)) { try payload.validate(.consume) }
    }

    @Test func formatsForDisplay() {
        #expect(ManualPairingCode.formatted("34970112332") == "3497-011-2332")
        #expect(ManualPairingCode.formatted("3497 011 2332") == "3497-011-2332")
        #expect(ManualPairingCode.formatted("749701123365521327687") == "7497-011-2336-55213-27687")
        #expect(ManualPairingCode.formatted("12-34") == "1234")
    }

    @Test func formattedCodesParseBack() throws {
        for vector in OnboardingVectors.manualCodes {
            let formatted = ManualPairingCode.formatted(vector.code)
            #expect(try ManualPairingCode.parse(formatted) == ManualPairingCode.parse(vector.code))
        }
    }

    @Test func encodingWithoutValidationStillChecksWidths() {
        let tooWide = SetupPayload(discriminator: .short(3), passcode: 1 << 27)
        #expect(throws: OnboardingError.valueTooWide(field: "passcode", value: 1 << 27, bits: 27)) {
            try ManualPairingCode.encode(tooWide, validating: false)
        }
        let badShort = SetupPayload(discriminator: .short(16), passcode: 20_202_021)
        #expect(throws: OnboardingError.shortDiscriminatorOutOfRange(16)) {
            try ManualPairingCode.encode(badShort, validating: false)
        }
    }

    private func withCheckDigit(_ digits: String) throws -> String {
        digits + String(try #require(Verhoeff.checkDigit(for: digits)))
    }
}

@Suite struct VerhoeffTests {
    @Test func computesKnownCheckDigits() {
        #expect(Verhoeff.checkDigit(for: "236") == "3")
        #expect(Verhoeff.checkDigit(for: "12345") == "1")
        #expect(Verhoeff.checkDigit(for: "3497011233") == "2")
        #expect(Verhoeff.checkDigit(for: "74970112336552132768") == "7")
        #expect(Verhoeff.checkDigit(for: "2361087535") == "0")
    }

    @Test func validatesCodes() {
        #expect(Verhoeff.isValid("2363"))
        #expect(!Verhoeff.isValid("2364"))
        #expect(!Verhoeff.isValid("7"))
        #expect(!Verhoeff.isValid(""))
        #expect(!Verhoeff.isValid("23-63"))
    }

    @Test func refusesNonDigits() {
        #expect(Verhoeff.checkDigit(for: "12a") == nil)
        #expect(Verhoeff.checkDigit(for: "١٢") == nil)
    }

    @Test func detectsEverySingleDigitErrorAndAdjacentTransposition() throws {
        for vector in OnboardingVectors.manualCodes {
            let digits = Array(vector.code)
            for index in digits.indices {
                for replacement in "0123456789" where replacement != digits[index] {
                    var altered = digits
                    altered[index] = replacement
                    #expect(!Verhoeff.isValid(String(altered)), "\(String(altered))")
                }
                if index + 1 < digits.count, digits[index] != digits[index + 1] {
                    var swapped = digits
                    swapped.swapAt(index, index + 1)
                    #expect(!Verhoeff.isValid(String(swapped)), "\(String(swapped))")
                }
            }
        }
    }
}
