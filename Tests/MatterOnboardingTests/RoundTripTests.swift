import MatterCore
import MatterOnboarding
import MatterTestSupport
import Testing

/// Many seeded random valid payloads through both code formats and back.
@Suite struct RoundTripTests {
    static let count = 2000

    static func randomPayload(_ g: inout SplitMix64) -> SetupPayload {
        let anonymous = Int.random(in: 0..<8, using: &g) == 0
        var payload = SetupPayload(
            vendorID: VendorID(anonymous ? 0 : UInt16.random(in: 1...SetupPayload.maxVendorID, using: &g)),
            productID: ProductID(anonymous ? 0 : UInt16.random(in: 1...0xFFFF, using: &g)),
            commissioningFlow: [.standard, .userActionRequired, .custom][Int.random(in: 0..<3, using: &g)],
            discoveryCapabilities: DiscoveryCapabilities(rawValue: UInt8.random(in: 0...0x3F, using: &g)),
            discriminator: SetupDiscriminator.random(using: &g),
            passcode: SetupPasscode.random(using: &g))
        guard Bool.random(using: &g) else { return payload }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-é")
        switch Int.random(in: 0..<3, using: &g) {
        case 0: payload.serialNumber = .number(UInt32.random(in: 0...UInt32.max, using: &g))
        case 1:
            let length = Int.random(in: 0...16, using: &g)
            payload.serialNumber = .string(String((0..<length).map { _ in alphabet.randomElement(using: &g) ?? "A" }))
        default: break
        }
        if Bool.random(using: &g) { payload.pbkdfIterations = UInt32.random(in: 1000...100_000, using: &g) }
        if Bool.random(using: &g) {
            payload.pbkdfSalt = (0..<Int.random(in: 16...32, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g)
            }
        }
        if Bool.random(using: &g) { payload.numberOfDevices = UInt8.random(in: 1...255, using: &g) }
        if Bool.random(using: &g) { payload.commissioningTimeout = UInt16.random(in: 0...0xFFFF, using: &g) }
        var tags = Array(OptionalDataElement.firstVendorTag...0xFF)
        tags.shuffle(using: &g)
        for tag in tags.prefix(Int.random(in: 0...3, using: &g)) {
            let value: OptionalDataElement.Value =
                switch Int.random(in: 0..<4, using: &g) {
                case 0: .signed(Int64.random(in: .min ... .max, using: &g))
                case 1: .unsigned(UInt64.random(in: 0 ... .max, using: &g))
                case 2: .utf8("v\(tag)")
                default:
                    .bytes((0..<Int.random(in: 0...8, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) })
                }
            payload.additionalElements.append(OptionalDataElement(tag: tag, value))
        }
        return payload
    }

    @Test func qrCodesRoundTrip() throws {
        var generator = SplitMix64(seed: 0x4D54_3A00)
        for _ in 0..<Self.count {
            let payload = Self.randomPayload(&generator)
            let code = try SetupQRCode.encode(payload)
            #expect(code.hasPrefix("MT:"))
            let bytes = try SetupQRCode.bytes(of: payload)
            #expect(code.count == 3 + Base38.encodedLength(byteCount: bytes.count))
            #expect(try SetupQRCode.parse(code) == [payload], "\(code)")
            #expect(try OnboardingPayloadParser.parse(code).payload == payload)
        }
    }

    @Test func multiPayloadQRCodesRoundTrip() throws {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<200 {
            let payloads = (0..<Int.random(in: 1...4, using: &generator)).map { _ in Self.randomPayload(&generator) }
            let code = try SetupQRCode.encode(payloads)
            #expect(code.filter { $0 == "*" }.count == payloads.count - 1)
            #expect(try SetupQRCode.parse(code) == payloads)
        }
    }

    @Test func manualCodesRoundTrip() throws {
        var generator = SplitMix64(seed: 1_1_21)
        for _ in 0..<Self.count {
            let payload = Self.randomPayload(&generator)
            let code = try ManualPairingCode.encode(payload)
            let isLong = payload.commissioningFlow != .standard
            #expect(code.count == (isLong ? 21 : 11))
            #expect(Verhoeff.isValid(code))
            var expected = SetupPayload(
                commissioningFlow: isLong ? .custom : .standard,
                discriminator: .short(payload.discriminator.shortValue), passcode: payload.passcode)
            if isLong {
                expected.vendorID = payload.vendorID
                expected.productID = payload.productID
            }
            let parsed = try ManualPairingCode.parse(code)
            #expect(parsed == expected, "\(code)")
            #expect(try OnboardingPayloadParser.parse(ManualPairingCode.formatted(code)).payload == expected)
            #expect(try ManualPairingCode.encode(parsed) == code)
            if let long = payload.discriminator.longValue { #expect(parsed.discriminator.matches(long)) }
        }
    }
}
