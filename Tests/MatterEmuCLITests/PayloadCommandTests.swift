import MatterTestSupport
import Testing

/// `payload parse` of every onboarding vector of the spec digest prints the documented fields;
/// `payload generate` round-trips through `payload parse`.
@Suite("matter-emu payload parse|generate")
struct PayloadCommandTests {
    struct QRVector: Sendable, CustomTestStringConvertible {
        let code: String
        let vendorID: Int
        let productID: Int
        let capabilities: [String]
        let discriminator: Int
        let passcode: Int
        var testDescription: String { code }
    }

    static let qrVectors: [QRVector] = [
        QRVector(
            code: "MT:M5L90MP500K64J00000", vendorID: 12, productID: 1, capabilities: ["soft-ap"],
            discriminator: 128, passcode: 2048),
        QRVector(
            code: "MT:-24J0AFN00KA0648G00", vendorID: 0xFFF1, productID: 0x8001, capabilities: ["on-network"],
            discriminator: 3840, passcode: 20_202_021),
        QRVector(
            code: "MT:-24J042C00KA0648G00", vendorID: 0xFFF1, productID: 0x8001, capabilities: ["ble"],
            discriminator: 3840, passcode: 20_202_021),
        QRVector(
            code: "MT:Y.K9042C00KA0648G00", vendorID: 0xFFF1, productID: 0x8000, capabilities: ["ble"],
            discriminator: 3840, passcode: 20_202_021),
        QRVector(
            code: "MT:Y.K90AFN00KA0648G00", vendorID: 0xFFF1, productID: 0x8000, capabilities: ["on-network"],
            discriminator: 3840, passcode: 20_202_021),
        QRVector(
            code: "MT:YNJV7VSC00CMVH7SR00", vendorID: 9050, productID: 65279, capabilities: ["ble"],
            discriminator: 2976, passcode: 34_567_890),
        QRVector(
            code: "MT:-24J0AFN00KA064IJ3P0IXZB0DK5N1K8SQ1RYCU1-A40", vendorID: 0xFFF1, productID: 0x8001,
            capabilities: ["on-network"], discriminator: 3840, passcode: 20_202_021),
    ]

    @Test(arguments: qrVectors)
    func parsesQRVectorsToTheirFields(vector: QRVector) throws {
        let result = try ProcessRunner.runMatterEmu(["payload", "parse", vector.code, "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let json = try result.json()
        #expect(json["format"] as? String == "qr")
        let payload = try #require((json["payloads"] as? [[String: Any]])?.first)
        #expect(payload["version"] as? Int == 0)
        #expect(payload["vendorID"] as? Int == vector.vendorID)
        #expect(payload["productID"] as? Int == vector.productID)
        #expect(payload["commissioningFlow"] as? String == "standard")
        #expect(payload["discoveryCapabilities"] as? [String] == vector.capabilities)
        #expect(payload["discriminator"] as? Int == vector.discriminator)
        #expect(payload["passcode"] as? Int == vector.passcode)
    }

    @Test func qrOptionalSerialNumberIsPrinted() throws {
        let result = try ProcessRunner.runMatterEmu([
            "payload", "parse", "MT:-24J0AFN00KA064IJ3P0IXZB0DK5N1K8SQ1RYCU1-A40",
        ])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("Serial number           1234567890"))
    }

    struct ManualVector: Sendable, CustomTestStringConvertible {
        let code: String
        let shortDiscriminator: Int
        let passcode: Int
        let vendorID: Int
        let productID: Int
        let valid: Bool
        var testDescription: String { code }
    }

    static let manualVectors: [ManualVector] = [
        ManualVector(
            code: "34970112332", shortDiscriminator: 15, passcode: 20_202_021, vendorID: 0, productID: 0, valid: true),
        ManualVector(
            code: "749701123365521327687", shortDiscriminator: 15, passcode: 20_202_021, vendorID: 65521,
            productID: 32768, valid: true),
        ManualVector(
            code: "26318621095", shortDiscriminator: 11, passcode: 34_567_890, vendorID: 0, productID: 0, valid: true),
        ManualVector(
            code: "00852607537", shortDiscriminator: 0, passcode: 12_345_678, vendorID: 0, productID: 0, valid: false),
        ManualVector(
            code: "16043714310", shortDiscriminator: 7, passcode: 23_456_789, vendorID: 0, productID: 0, valid: true),
        ManualVector(
            code: "00876800071", shortDiscriminator: 0, passcode: 123_456, vendorID: 0, productID: 0, valid: true),
        ManualVector(
            code: "23610875350", shortDiscriminator: 10, passcode: 123_456_780, vendorID: 0, productID: 0, valid: false),
        ManualVector(
            code: "636108753545367145260", shortDiscriminator: 10, passcode: 123_456_780, vendorID: 45367,
            productID: 14526, valid: false),
        ManualVector(
            code: "529276236304562000322", shortDiscriminator: 5, passcode: 38_728_284, vendorID: 4562,
            productID: 32, valid: true),
    ]

    @Test(arguments: manualVectors)
    func parsesManualVectorsToTheirFields(vector: ManualVector) throws {
        let result = try ProcessRunner.runMatterEmu(["payload", "parse", vector.code, "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let payload = try #require((try result.json()["payloads"] as? [[String: Any]])?.first)
        #expect(payload["shortDiscriminator"] as? Int == vector.shortDiscriminator)
        #expect(payload["passcode"] as? Int == vector.passcode)
        #expect(payload["vendorID"] as? Int == vector.vendorID)
        #expect(payload["productID"] as? Int == vector.productID)
        #expect(payload["valid"] as? Bool == vector.valid)
        #expect(payload["commissioningFlow"] as? String == (vector.code.count == 21 ? "custom" : "standard"))
    }

    @Test func dashesAndSpacesInManualCodesAreIgnored() throws {
        let result = try ProcessRunner.runMatterEmu(["payload", "parse", "3497-011 2332"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("Passcode                20202021"))
        #expect(result.stdout.contains("Short discriminator     15"))
    }

    @Test(arguments: [
        ("34970112331", "check digit mismatch"),
        ("3497011233", "has 10 digit(s), expected 11 or 21"),
        ("MT:Y.K9042C00KA0648G01", ""),
        ("MT:Y.K9042C00KA0648G0", ""),
        ("MT:YNJV7VSC00CMVH7E4810AK00", ""),
        ("hello", ""),
    ])
    func invalidCodesExitTwoWithAReason(code: String, reason: String) throws {
        let result = try ProcessRunner.runMatterEmu(["payload", "parse", code])
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("error: "))
        #expect(result.stderr.contains(reason))
        #expect(result.stdout.isEmpty)
    }

    @Test func generateMatchesTheSDKExampleCodes() throws {
        let result = try ProcessRunner.runMatterEmu([
            "payload", "generate", "--passcode", "20202021", "--discriminator", "3840",
            "--vendor-id", "0xFFF1", "--product-id", "0x8001", "--json",
        ])
        #expect(result.exitCode == 0)
        let json = try result.json()
        #expect(json["qrCode"] as? String == "MT:-24J0AFN00KA0648G00")
        #expect(json["manualCode"] as? String == "34970112332")
        #expect(json["manualCodeFormatted"] as? String == "3497-011-2332")
    }

    @Test func generateDrawsAQRCodeInHalfBlocks() throws {
        let result = try ProcessRunner.runMatterEmu(["payload", "generate"])
        #expect(result.exitCode == 0)
        let lines = result.stdout.split(separator: "\n").dropFirst(2)
        let art = lines.filter { line in line.allSatisfy { "█▀▄ ".contains($0) } }
        #expect(art.count >= 10)
        // Square symbol: rows are twice as tall as a text line, so width ≈ 2 × lines.
        let width = try #require(art.first?.count)
        #expect(art.allSatisfy { $0.count == width })
        #expect(abs(width - 2 * art.count) <= 1)
    }

    @Test func generateUserIntentFlowGivesALongManualCodeThatParsesBack() throws {
        let generated = try ProcessRunner.runMatterEmu([
            "payload", "generate", "--passcode", "34567890", "--discriminator", "2976",
            "--vendor-id", "9050", "--product-id", "65279", "--flow", "user-intent",
            "--discovery", "ble,on-network", "--json",
        ])
        #expect(generated.exitCode == 0)
        let json = try generated.json()
        let manual = try #require(json["manualCode"] as? String)
        #expect(manual.count == 21)
        let qr = try #require(json["qrCode"] as? String)
        let parsed = try ProcessRunner.runMatterEmu(["payload", "parse", qr, "--json"]).json()
        let payload = try #require((parsed["payloads"] as? [[String: Any]])?.first)
        #expect(payload["commissioningFlow"] as? String == "user-intent")
        #expect(payload["discoveryCapabilities"] as? [String] == ["ble", "on-network"])
        #expect(payload["passcode"] as? Int == 34_567_890)
    }

    @Test(arguments: [
        (["--passcode", "11111111"], "passcode 11111111 is not allowed"),
        (["--passcode", "0"], "passcode"),
        (["--passcode", "100000000"], "passcode"),
        (["--discriminator", "4096"], "out of range"),
        (["--vendor-id", "0x1FFFF"], "out of range"),
        (["--discovery", "carrier-pigeon"], "unknown --discovery"),
        (["--flow", "fast"], "unknown --flow"),
    ])
    func generateRejectsBadValues(arguments: [String], message: String) throws {
        let result = try ProcessRunner.runMatterEmu(["payload", "generate"] + arguments)
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains(message))
    }
}
