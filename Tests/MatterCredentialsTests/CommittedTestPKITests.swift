import Foundation
import MatterCore
import MatterCredentials
import MatterCrypto
import MatterTestSupport
import Testing

/// The committed fixtures/pki set, checked with this module's verifier and with the OpenSSL CLI.
@Suite("Committed test PKI (fixtures/pki)")
struct CommittedTestPKITests {
    static let root = TestPaths.repositoryRoot.appendingPathComponent("fixtures/pki")

    static func load(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(path)))
    }

    @Test("every device's DAC, key, PAI and CD pass attestation against the committed PAA trust store")
    func acceptedByVerifier() throws {
        let store = try PAATrustStore(directory: Self.root.appendingPathComponent("paa-trust-store").path)
        #expect(store.certificates.count == 2 && store.skippedFiles.isEmpty)  // FFF1's and the any-vendor PAA
        let verifier = try DeviceAttestationVerifier(trustStore: store)
        let pai = try AttestationCertificate(der: try Self.load("pai-cert.der"))
        let paa = try #require(store.certificates.first { $0.vendorID != nil })
        // The any-vendor PAA (twins of recorded devices): no Vendor ID, its PEM and key beside it.
        let anyVendor = try #require(store.certificates.first { $0.vendorID == nil })
        #expect(
            try PEM.decode(
                String(decoding: try Self.load("paa-any-vendor-cert.pem"), as: UTF8.self), label: "CERTIFICATE")
                == anyVendor.derEncoded)
        let anyVendorKey = try PEM.privateKey(String(decoding: try Self.load("paa-any-vendor-key.pem"), as: UTF8.self))
        #expect(anyVendorKey.publicKey == anyVendor.publicKey)
        #expect(paa.vendorID == .testVendor1 && pai.vendorID == .testVendor1)
        #expect(
            try PEM.decode(String(decoding: try Self.load("pai-cert.pem"), as: UTF8.self), label: "CERTIFICATE")
                == pai.derEncoded)
        let authority = try TestAttestationAuthority(
            paa: paa, paaKey: try PEM.privateKey(String(decoding: try Self.load("paa-key.pem"), as: UTF8.self)),
            pai: pai, paiKey: try PEM.privateKey(String(decoding: try Self.load("pai-key.pem"), as: UTF8.self)))
        #expect(authority.vendorID == .testVendor1)
        for device in testPKIDevices {
            let credentials = try DeviceAttestationCredentials.load(pkiDirectory: Self.root.path, device: device.name)
            #expect(credentials.pai == pai)
            #expect(credentials.dac.productID == device.productID, "\(device.name)")
            let result = try checkAccepted(
                credentials, vendorID: .testVendor1, productID: device.productID, verifier: verifier)
            #expect(result.certificationDeclaration.deviceTypeID == device.deviceTypeID, "\(device.name)")
        }
    }

    @Test(
        "openssl verify -CAfile paa.pem -untrusted pai.pem dac.pem accepts every committed DAC",
        .enabled(if: OpenSSLCLI.isAvailable, "/usr/bin/openssl is missing"))
    func acceptedByOpenSSL() throws {
        for device in testPKIDevices {
            let result = try OpenSSLCLI.run(
                [
                    "verify", "-x509_strict", "-CAfile", "paa-cert.pem", "-untrusted", "pai-cert.pem",
                    "devices/\(device.name)/dac-cert.pem",
                ], in: Self.root)
            #expect(result.status == 0, "\(device.name): \(result.output)")
            #expect(result.output.contains("dac-cert.pem: OK"), "\(device.name)")
        }
    }

    @Test("loading a device that is not there throws a typed error")
    func missingDevice() {
        expectCredentialsError(
            "missing device",
            {
                try DeviceAttestationCredentials.load(pkiDirectory: Self.root.path, device: "toaster")
            }, matches: { if case .invalidArgument = $0 { true } else { false } })
    }
}
