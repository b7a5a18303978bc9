import Foundation
import MatterCore
import MatterCrypto
import MatterTestSupport
import Testing

@testable import MatterCredentials

private struct DeclarationVectors: Decodable {
    struct Entry: Decodable {
        let name: String
        let vendorID: UInt16
        let productIDs: [UInt16]
        let deviceTypeID: UInt32
        let certificateID: String
        let versionNumber: UInt16
        let certificationType: UInt8
        let dacOriginVendorID: UInt16?
        let dacOriginProductID: UInt16?
        let content: String
        let cms: String
    }
    let signerKeyIdentifier: String
    let declarations: [Entry]
}

/// The SDK's test CD signing key, as committed under fixtures/pki (public test data).
func sdkTestCDSigningKey() throws -> P256PrivateKey {
    let text = try String(
        contentsOf: TestPaths.repositoryRoot.appendingPathComponent("fixtures/pki/cd-signing-key.pem"), encoding: .utf8)
    return try PEM.privateKey(text)
}

@Suite("Certification declarations: SDK vectors, CMS envelope, signing")
struct CertificationDeclarationTests {
    private static func vectors() throws -> DeclarationVectors {
        try VectorFile.load("certification-declarations", as: DeclarationVectors.self, in: .module)
    }

    @Test("CD content encodes byte for byte like the SDK and decodes to the same fields")
    func contentVectors() throws {
        let vectors = try Self.vectors()
        for entry in vectors.declarations {
            let declaration = CertificationDeclaration(
                vendorID: VendorID(entry.vendorID), productIDs: entry.productIDs.map(ProductID.init),
                deviceTypeID: entry.deviceTypeID, certificateID: entry.certificateID,
                versionNumber: entry.versionNumber,
                certificationType: try #require(.init(rawValue: entry.certificationType)),
                dacOriginVendorID: entry.dacOriginVendorID.map(VendorID.init),
                dacOriginProductID: entry.dacOriginProductID.map(ProductID.init))
            #expect(hexString(declaration.tlvEncoded) == entry.content, "\(entry.name)")
            #expect(try CertificationDeclaration(tlv: hex(entry.content)) == declaration, "\(entry.name)")
        }
    }

    @Test("SDK CMS envelopes parse, verify with the SDK test key, and re-encode byte for byte")
    func cmsVectors() throws {
        let vectors = try Self.vectors()
        let testKey = try CertificationDeclarationSigningKey.sdkTest()
        #expect(hexString(testKey.keyIdentifier) == vectors.signerKeyIdentifier)
        #expect(
            try CertificationDeclarationSigningKey(publicKey: testKey.publicKey).keyIdentifier == testKey.keyIdentifier)
        for entry in vectors.declarations {
            let cms = hex(entry.cms)
            let envelope = try SignedCertificationDeclaration(cms: cms)
            #expect(hexString(envelope.content) == entry.content, "\(entry.name)")
            #expect(hexString(envelope.signerKeyIdentifier) == vectors.signerKeyIdentifier, "\(entry.name)")
            #expect(envelope.isSignatureValid(publicKey: testKey.publicKey), "\(entry.name)")
            #expect(envelope.reencoded == cms, "\(entry.name)")
            #expect(!envelope.isSignatureValid(publicKey: try P256PrivateKey().publicKey), "\(entry.name) wrong key")
        }
    }

    @Test("the committed SDK test CD key matches the built-in test public key and signs verifiable CDs")
    func signWithTestKey() throws {
        let key = try sdkTestCDSigningKey()
        let testKey = try CertificationDeclarationSigningKey.sdkTest()
        #expect(key.publicKey == testKey.publicKey)
        let declaration = CertificationDeclaration(
            vendorID: .testVendor1, productIDs: [ProductID(0x8001)], deviceTypeID: 0x0100,
            certificateID: "ZIG20142ZB330003-24")
        let signed = try SignedCertificationDeclaration.sign(declaration, key: key)
        #expect(signed.signerKeyIdentifier == testKey.keyIdentifier)
        let parsed = try SignedCertificationDeclaration(cms: signed.cmsEncoded)
        #expect(parsed.isSignatureValid(publicKey: testKey.publicKey))
        #expect(try parsed.declaration() == declaration)
        // The layout matches the SDK's: same bytes as the SDK's own envelope around the same content and signature.
        #expect(parsed.reencoded == signed.cmsEncoded)
    }

    @Test(
        "OpenSSL's CMS verifier accepts a CD signed here, finding the signer by key identifier",
        .enabled(if: OpenSSLCLI.isAvailable, "/usr/bin/openssl is missing"))
    func opensslVerifiesCMS() throws {
        let key = try sdkTestCDSigningKey()
        let declaration = CertificationDeclaration(
            vendorID: .testVendor1, productIDs: [ProductID(0x8001), ProductID(0x8002)], deviceTypeID: 0x0101,
            certificateID: "ZIG20142ZB330003-24", authorizedPAAList: [[UInt8](repeating: 0xAB, count: 20)])
        let signed = try SignedCertificationDeclaration.sign(declaration, key: key)
        let directory = try TemporaryDirectory()
        try directory.write(signed.cmsEncoded, "cd.der")
        let certificate = try String(
            contentsOf: TestPaths.repositoryRoot.appendingPathComponent("fixtures/pki/cd-signing-cert.pem"),
            encoding: .utf8)
        try directory.write(certificate, "signer.pem")
        let result = try OpenSSLCLI.run(
            [
                "cms", "-verify", "-binary", "-inform", "DER", "-in", "cd.der", "-certfile", "signer.pem", "-noverify",
                "-out", "content.bin",
            ], in: directory.url)
        #expect(result.status == 0, "openssl cms -verify: \(result.output)")
        let content = try Data(contentsOf: directory.url.appendingPathComponent("content.bin"))
        #expect([UInt8](content) == declaration.tlvEncoded)
    }

    @Test("malformed CD content and envelopes throw typed errors")
    func malformed() throws {
        let vectors = try Self.vectors()
        let content = hex(try #require(vectors.declarations.first).content)
        let cms = hex(try #require(vectors.declarations.first).cms)
        for length in [0, 1, 5, content.count - 1] {
            expectCredentialsError(
                "truncated CD", { try CertificationDeclaration(tlv: Array(content.prefix(length))) },
                matches: {
                    if case .malformedTLV = $0 { true } else { false }
                })
        }
        for length in [0, 2, 20, cms.count / 2, cms.count - 1] {
            expectCredentialsError(
                "truncated CMS", { try SignedCertificationDeclaration(cms: Array(cms.prefix(length))) },
                matches: {
                    if case .malformedDER = $0 { true } else { false }
                })
        }
        var wrongCertificateID = CertificationDeclaration(
            vendorID: .testVendor1, productIDs: [ProductID(1)], deviceTypeID: 1, certificateID: "short")
        expectCredentialsError(
            "19-character certificate_id",
            {
                try CertificationDeclaration(tlv: wrongCertificateID.tlvEncoded)
            }, matches: { if case .malformedTLV = $0 { true } else { false } })
        wrongCertificateID.certificateID = "ZIG20142ZB330003-24"
        wrongCertificateID.productIDs = []
        expectCredentialsError(
            "empty product_id_array",
            {
                try CertificationDeclaration(tlv: wrongCertificateID.tlvEncoded)
            }, matches: { if case .malformedTLV = $0 { true } else { false } })
        var flipped = cms
        flipped[15] = 0x31  // the [0] EXPLICIT wrapper becomes a SET
        expectCredentialsError(
            "wrong CMS structure", { try SignedCertificationDeclaration(cms: flipped) },
            matches: {
                if case .malformedDER = $0 { true } else { false }
            })
    }
}
