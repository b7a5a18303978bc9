import Foundation
import MatterController
import MatterCredentials
import MatterTestSupport
import Testing

@Suite("Default PAA trust store")
struct DefaultTrustStoreTests {
    @Test("holds our two fixtures PAAs byte for byte and the SDK's three test PAAs")
    func contents() throws {
        let store = try DefaultPAATrustStore.make()
        let fixture = try #require(
            FileManager.default.contents(
                atPath: TestPaths.pkiDirectory + "/paa-trust-store/Matter-Emulator-Test-PAA-FFF1-Cert.der"))
        let anyVendor = try #require(
            FileManager.default.contents(
                atPath: TestPaths.pkiDirectory + "/paa-trust-store/Matter-Emulator-Test-PAA-AnyVendor-Cert.der"))
        #expect(store.certificates.count == 5)
        #expect(store.certificates.first?.derEncoded == [UInt8](fixture))
        #expect(store.certificates[1].derEncoded == [UInt8](anyVendor))
        #expect(
            store.certificates.map(\.commonName) == [
                "Matter Emulator Test PAA FFF1", "Matter Emulator Test PAA Any Vendor", "Matter Test PAA FFF1",
                "Matter Test PAA FFF2", "Matter Test PAA",
            ])
        // The SDK test PAAs' key IDs (subject key identifiers from the SDK's certificates).
        #expect(
            store.certificates[2].subjectKeyIdentifier.map { Data($0).map { String(format: "%02X", $0) }.joined() }
                == "6B7A5841DE2503CE410680A443132987 7A061DF0".replacingOccurrences(of: " ", with: ""))
    }

    @Test("a directory store reads DER and PEM files and refuses a directory without certificates")
    func directory() throws {
        let directory = try TemporaryDirectory()
        let der = try #require(
            FileManager.default.contents(
                atPath: TestPaths.pkiDirectory + "/paa-trust-store/Matter-Emulator-Test-PAA-FFF1-Cert.der"))
        #expect(throws: CredentialsError.self) { try DefaultPAATrustStore.load(directory: directory.path) }
        try der.write(to: URL(fileURLWithPath: directory.path + "/ours.der"))
        try Data(CommissioningTests.sdkTestPAAFFF1.utf8).write(to: URL(fileURLWithPath: directory.path + "/sdk.pem"))
        try Data("not a certificate".utf8).write(to: URL(fileURLWithPath: directory.path + "/notes.pem"))
        let store = try DefaultPAATrustStore.load(directory: directory.path)
        #expect(store.certificates.map(\.commonName) == ["Matter Emulator Test PAA FFF1", "Matter Test PAA FFF1"])
    }
}
