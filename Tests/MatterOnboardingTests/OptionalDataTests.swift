import MatterCore
import MatterOnboarding
import MatterTestSupport
import Testing

/// The QR code's optional TLV data, checked on the bytes after the 11 fixed ones.
@Suite struct OptionalDataTests {
    /// Fixed part of `MT:-24J0AFN00KA0648G00`.
    static let fixedHex = "88ff0f008400e04b846802"
    static var base: SetupPayload { OnboardingVectors.qrCodes[1].payload }

    private func tlv(of payload: SetupPayload) throws -> String {
        let bytes = try SetupQRCode.bytes(of: payload)
        return Hex.encode(bytes[11...])
    }

    private func decode(tlvHex: String) throws -> SetupPayload {
        let bytes = try #require(Hex.decode(Self.fixedHex + tlvHex))
        return try SetupQRCode.payload(fromBytes: bytes)
    }

    @Test func serialNumberStringVector() throws {
        var payload = Self.base
        payload.serialNumber = .string("1234567890")
        #expect(try tlv(of: payload) == "152c000a3132333435363738393018")
        #expect(try decode(tlvHex: "152c000a3132333435363738393018") == payload)
    }

    @Test func serialNumberNumberVector() throws {
        var payload = Self.base
        payload.serialNumber = .number(1_234_567_890)
        #expect(try tlv(of: payload) == "152600d202964918")
        #expect(try decode(tlvHex: "152600d202964918") == payload)
    }

    @Test func vendorElementThenSerialNumberVector() throws {
        var payload = Self.base
        payload.additionalElements = [OptionalDataElement(tag: 0x81, .utf8("Vendor"))]
        payload.serialNumber = .string("1234567890")
        let hex = "152c810656656e646f722c000a3132333435363738393018"
        #expect(try tlv(of: payload) == hex)
        #expect(try decode(tlvHex: hex) == payload)
    }

    @Test func everyKnownFieldRoundTrips() throws {
        var payload = Self.base
        payload.pbkdfIterations = 1000
        payload.pbkdfSalt = Array(0..<16)
        payload.numberOfDevices = 2
        payload.commissioningTimeout = 900
        payload.additionalElements = [
            OptionalDataElement(tag: 0x80, .signed(-2)),
            OptionalDataElement(tag: 0xFF, .unsigned(0x1_0000_0000)),
            OptionalDataElement(tag: 0x90, .bytes([0xCA, 0xFE])),
        ]
        // Vendor elements first (as read), then tags 1...4 in order; minimal-width integers.
        let hex =
            "15" + "2080fe" + "27ff0000000001000000" + "309002cafe"
            + "2501e803" + "3002" + "10000102030405060708090a0b0c0d0e0f" + "240302" + "25048403" + "18"
        #expect(try tlv(of: payload) == hex)
        #expect(try decode(tlvHex: hex) == payload)
    }

    @Test func membersOfOtherTypesAreSkipped() throws {
        // {5: true, 0x81: null, 0: "AB"}: the boolean and null are skipped, as in the SDK.
        let payload = try decode(tlvHex: "15" + "2905" + "3481" + "2c00024142" + "18")
        var expected = Self.base
        expected.serialNumber = .string("AB")
        #expect(payload == expected)
    }

    @Test func unknownCommonTagsAreKept() throws {
        let payload = try decode(tlvHex: "15" + "240507" + "18")
        #expect(payload.additionalElements == [OptionalDataElement(tag: 0x05, .unsigned(7))])
        #expect(!payload.isValid(.produce))
        #expect(payload.isValid(.consume))
    }

    @Test func knownTagWithWrongTypeIsRejected() throws {
        let error = try #require(throws: OnboardingError.self) { try decode(tlvHex: "15" + "2c01024142" + "18") }
        #expect(error == .invalidOptionalData("tag 0x01 has the wrong TLV type"))
        let signedSerial = try #require(throws: OnboardingError.self) { try decode(tlvHex: "15" + "200005" + "18") }
        #expect(signedSerial == .invalidOptionalData("tag 0x00 has the wrong TLV type"))
    }

    @Test func valueWiderThanItsFieldIsRejected() throws {
        let error = try #require(throws: OnboardingError.self) {
            try decode(tlvHex: "15" + "27000000000001000000" + "18")
        }
        #expect(error == .invalidOptionalData("serial number 4294967296 does not fit in 32 bits"))
        let devices = try #require(throws: OnboardingError.self) { try decode(tlvHex: "15" + "25030001" + "18") }
        #expect(devices == .invalidOptionalData("number of devices 256 does not fit in 8 bits"))
    }

    @Test func nonStructureIsRejected() throws {
        for hex in ["010203", "1618", "0415", "3515" + "18"] {
            let error = try #require(throws: OnboardingError.self) { try decode(tlvHex: hex) }
            guard case .invalidOptionalData = error else {
                Issue.record("\(hex): expected invalidOptionalData, got \(error)")
                continue
            }
        }
    }

    @Test func truncatedStructureIsRejected() throws {
        let error = try #require(throws: OnboardingError.self) { try decode(tlvHex: "152c000a31323318") }
        guard case .invalidOptionalData = error else {
            Issue.record("expected invalidOptionalData, got \(error)")
            return
        }
    }

    @Test func nonContextMemberTagIsRejected() throws {
        // An anonymous unsigned member inside the structure.
        let error = try #require(throws: OnboardingError.self) { try decode(tlvHex: "15" + "0405" + "18") }
        guard case .invalidOptionalData = error else {
            Issue.record("expected invalidOptionalData, got \(error)")
            return
        }
    }

    @Test func duplicateTagIsRejected() throws {
        let error = try #require(throws: OnboardingError.self) {
            try decode(tlvHex: "15" + "248101" + "248102" + "18")
        }
        // A TLV decoder may already refuse duplicate structure members; either way the code is rejected.
        switch error {
        case .duplicateOptionalDataTag(0x81), .invalidOptionalData: break
        default: Issue.record("expected a duplicate-tag rejection, got \(error)")
        }
    }

    @Test func emptyOptionalDataIsNotWritten() throws {
        #expect(try SetupQRCode.bytes(of: Self.base).count == 11)
        // An empty structure read from a code is accepted and gives no fields.
        #expect(try decode(tlvHex: "1518") == Self.base)
    }
}
