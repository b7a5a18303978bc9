import Foundation
import MatterCore
import MatterCredentials
import MatterCrypto
import MatterTLV
import MatterTestSupport
import Testing

/// A device's answer to AttestationRequest, built from test credentials, and what the commissioner knows.
struct AttestationScenario {
    var authority: TestAttestationAuthority
    var credentials: DeviceAttestationCredentials
    var nonce: [UInt8]
    var challenge: [UInt8]
    var vendorID: VendorID
    var productID: ProductID

    static let productID = ProductID(0x8001)
    static let now = CertificateValidationTime.date(year: 2026, month: 6, day: 1)

    init(
        authority: TestAttestationAuthority? = nil, credentials: DeviceAttestationCredentials? = nil
    ) throws {
        let authority = try authority ?? TestAttestationAuthority.generate()
        self.authority = authority
        self.credentials =
            try credentials
            ?? authority.issueDevice(
                productID: Self.productID, deviceTypeID: 0x0100, certificationDeclarationKey: try sdkTestCDSigningKey())
        nonce = try SecureRandom.bytes(count: 32)
        challenge = try SecureRandom.bytes(count: 16)
        vendorID = authority.vendorID
        productID = Self.productID
    }

    /// The elements the device signs (its CD, the commissioner's nonce).
    var elements: [UInt8] { credentials.attestationElements(nonce: nonce).tlvEncoded }

    func information(elements: [UInt8]? = nil, signature: [UInt8]? = nil) throws -> DeviceAttestationInformation {
        let elements = elements ?? self.elements
        let signature =
            try signature
            ?? AttestationSignature.sign(
                elements: elements, attestationChallenge: challenge, dacKey: credentials.dacKey
            ).rawRepresentation
        return DeviceAttestationInformation(
            attestationElements: elements, attestationSignature: signature, attestationChallenge: challenge,
            attestationNonce: nonce, dacCertificate: credentials.dac.derEncoded,
            paiCertificate: credentials.pai.derEncoded, vendorID: vendorID, productID: productID)
    }

    func verifier(trusting paas: [AttestationCertificate]? = nil) throws -> DeviceAttestationVerifier {
        try DeviceAttestationVerifier(
            trustStore: PAATrustStore(certificates: (paas ?? [authority.paa]).map(\.derEncoded)))
    }

    func verify(_ info: DeviceAttestationInformation? = nil, trusting paas: [AttestationCertificate]? = nil)
        throws -> VerifiedDeviceAttestation
    {
        try verifier(trusting: paas).verify(info ?? information(), at: Self.now)
    }
}

@Suite("Device attestation: generated PKI accepted, every tampering rejected with its own SDK code")
struct DeviceAttestationTests {
    @Test("a generated PAA → PAI → DAC with a CD signed by the SDK test key is accepted")
    func accepted() throws {
        let scenario = try AttestationScenario()
        let result = try scenario.verify()
        #expect(result.dacPublicKey == scenario.credentials.dacKey.publicKey)
        #expect(result.dac.vendorID == .testVendor1 && result.dac.productID == AttestationScenario.productID)
        #expect(result.certificationDeclaration.productIDs == [AttestationScenario.productID])
        #expect(result.certificationDeclaration.certificationType == .developmentAndTest)
        #expect(result.paa == scenario.authority.paa)
        // Without a clock the DAC's current validity is not checked.
        _ = try scenario.verifier().verify(try scenario.information(), at: .unavailable)
    }

    @Test("the generated certificates follow the SDK attestation profile")
    func profile() throws {
        let scenario = try AttestationScenario()
        #expect(scenario.authority.paa.profileViolation(as: .paa) == nil)
        #expect(scenario.authority.pai.profileViolation(as: .pai) == nil)
        #expect(scenario.credentials.dac.profileViolation(as: .dac) == nil)
        #expect(scenario.credentials.dac.profileViolation(as: .pai) != nil)
        #expect(scenario.authority.paa.basicConstraints?.pathLength == 1)
        #expect(scenario.authority.pai.basicConstraints?.pathLength == 0)
        #expect(scenario.credentials.dac.keyUsage == .digitalSignature)
        #expect(scenario.authority.pai.keyUsage == [.keyCertSign, .cRLSign])
        #expect(scenario.credentials.dac.notAfter == AttestationCertificate.Validity.noExpiry)
        // VID/PID as UTF8String upper-case hex: 06 0a 2b0601040182a27c0201 0c 04 "FFF1"
        let vid = hex("060a2b0601040182a27c02010c0446464631")
        let der = scenario.credentials.dac.derEncoded
        #expect(der.indices.contains { Array(der[$0...].prefix(vid.count)) == vid })
    }

    @Test(
        "openssl verify -CAfile paa.pem -untrusted pai.pem dac.pem accepts the generated set",
        .enabled(if: OpenSSLCLI.isAvailable, "/usr/bin/openssl is missing"))
    func opensslAccepts() throws {
        let scenario = try AttestationScenario()
        let directory = try TemporaryDirectory()
        try directory.write(PEM.encode(scenario.authority.paa.derEncoded, label: PEM.certificateLabel), "paa.pem")
        try directory.write(PEM.encode(scenario.authority.pai.derEncoded, label: PEM.certificateLabel), "pai.pem")
        try directory.write(PEM.encode(scenario.credentials.dac.derEncoded, label: PEM.certificateLabel), "dac.pem")
        let result = try OpenSSLCLI.run(
            ["verify", "-x509_strict", "-CAfile", "paa.pem", "-untrusted", "pai.pem", "dac.pem"], in: directory.url)
        #expect(result.status == 0, "openssl verify: \(result.output)")
        #expect(result.output.contains("dac.pem: OK"))
    }

    @Test("inputs: PAI missing [207], empty input [800], DAC or PAI unparsable [303, 203]")
    func inputs() throws {
        let scenario = try AttestationScenario()
        var info = try scenario.information()
        info.paiCertificate = []
        expectAttestationFailure(207) { try scenario.verify(info) }
        info = try scenario.information()
        info.attestationNonce = []
        expectAttestationFailure(800) { try scenario.verify(info) }
        info = try scenario.information()
        info.dacCertificate = Array(info.dacCertificate.dropLast(3))
        expectAttestationFailure(303) { try scenario.verify(info) }
        info = try scenario.information()
        info.paiCertificate = [0x30, 0x03, 0x02, 0x01, 0x00]
        expectAttestationFailure(203) { try scenario.verify(info) }
        info = try scenario.information()
        info.dacCertificate = scenario.authority.pai.derEncoded  // a CA where a DAC belongs
        expectAttestationFailure(303) { try scenario.verify(info) }
    }

    @Test("wrong VID: DAC ≠ PAI [305], BasicInformation ≠ CD vendor_id [604], PAA ≠ PAI [205]")
    func wrongVendorID() throws {
        let base = try AttestationScenario()
        let foreignDAC = try base.authority.issueDevice(
            productID: AttestationScenario.productID, deviceTypeID: 0x0100,
            certificationDeclarationKey: try sdkTestCDSigningKey(), vendorID: VendorID(0xFFF2))
        let mismatched = try AttestationScenario(authority: base.authority, credentials: foreignDAC)
        expectAttestationFailure(305) { try mismatched.verify() }

        var basicInformation = try AttestationScenario()
        basicInformation.vendorID = VendorID(0xFFF2)
        expectAttestationFailure(604) { try basicInformation.verify() }

        let paaKey = try P256PrivateKey()
        let paiKey = try P256PrivateKey()
        let validity = AttestationCertificate.Validity.noExpiry(fromYear: 2024)
        let paa = try AttestationCertificate.makePAA(
            key: paaKey, commonName: "PAA FFF2", vendorID: VendorID(0xFFF2),
            validity: validity)
        let pai = try AttestationCertificate.makePAI(
            publicKey: paiKey.publicKey, commonName: "PAI FFF1", vendorID: .testVendor1, validity: validity,
            issuer: paa,
            issuerKey: paaKey)
        let crossVendor = try AttestationScenario(
            authority: TestAttestationAuthority(paa: paa, paaKey: paaKey, pai: pai, paiKey: paiKey))
        expectAttestationFailure(205) { try crossVendor.verify() }
    }

    @Test("wrong PID: BasicInformation PID not in the CD [605], PAI PID ≠ DAC PID [306]")
    func wrongProductID() throws {
        var scenario = try AttestationScenario()
        scenario.productID = ProductID(0x8002)
        expectAttestationFailure(605) { try scenario.verify() }

        let base = try AttestationScenario()
        let paiKey = try P256PrivateKey()
        let pai = try AttestationCertificate.makePAI(
            publicKey: paiKey.publicKey, commonName: "PAI with PID", vendorID: .testVendor1,
            productID: ProductID(0x8002), validity: .noExpiry(fromYear: 2024), issuer: base.authority.paa,
            issuerKey: base.authority.paaKey)
        let authority = try TestAttestationAuthority(
            paa: base.authority.paa, paaKey: base.authority.paaKey, pai: pai, paiKey: paiKey)
        let pidMismatch = try AttestationScenario(authority: authority)
        expectAttestationFailure(306) { try pidMismatch.verify() }
    }

    @Test("a DAC whose PID the CD does not list [605]")
    func dacProductNotCertified() throws {
        let base = try AttestationScenario()
        let dacKey = try P256PrivateKey()
        let dac = try AttestationCertificate.makeDAC(
            publicKey: dacKey.publicKey, commonName: "DAC 8009", vendorID: .testVendor1, productID: ProductID(0x8009),
            validity: .noExpiry(fromYear: 2024), issuer: base.authority.pai, issuerKey: base.authority.paiKey)
        let credentials = try DeviceAttestationCredentials(
            dac: dac, dacKey: dacKey, pai: base.authority.pai,
            certificationDeclaration: base.credentials.certificationDeclaration)
        let scenario = try AttestationScenario(authority: base.authority, credentials: credentials)
        expectAttestationFailure(605) { try scenario.verify() }
    }

    @Test("an expired DAC [300], a PAI expired when the DAC was issued [200]")
    func expired() throws {
        let base = try AttestationScenario()
        let expired = try base.authority.issueDevice(
            productID: AttestationScenario.productID, deviceTypeID: 0x0100,
            certificationDeclarationKey: try sdkTestCDSigningKey(),
            validity: .init(notBefore: unixSeconds(2024, 1, 1), notAfter: unixSeconds(2025, 1, 1)))
        let scenario = try AttestationScenario(authority: base.authority, credentials: expired)
        expectAttestationFailure(300) { try scenario.verify() }

        let paiKey = try P256PrivateKey()
        let shortPAI = try AttestationCertificate.makePAI(
            publicKey: paiKey.publicKey, commonName: "short-lived PAI", vendorID: .testVendor1,
            validity: .init(notBefore: unixSeconds(2024, 1, 1), notAfter: unixSeconds(2024, 6, 1)),
            issuer: base.authority.paa, issuerKey: base.authority.paaKey)
        let authority = try TestAttestationAuthority(
            paa: base.authority.paa, paaKey: base.authority.paaKey, pai: shortPAI, paiKey: paiKey)
        let lateDAC = try authority.issueDevice(
            productID: AttestationScenario.productID, deviceTypeID: 0x0100,
            certificationDeclarationKey: try sdkTestCDSigningKey(), validity: .noExpiry(fromYear: 2025))
        let stale = try AttestationScenario(authority: authority, credentials: lateDAC)
        expectAttestationFailure(200) { try stale.verify() }
    }

    @Test("a DAC not signed by its PAI fails the OpenSSL chain check [301]")
    func brokenChain() throws {
        let base = try AttestationScenario()
        let dacKey = try P256PrivateKey()
        let forger = try P256PrivateKey()
        let dac = try AttestationCertificate.makeDAC(
            publicKey: dacKey.publicKey, commonName: "forged DAC", vendorID: .testVendor1,
            productID: AttestationScenario.productID, validity: .noExpiry(fromYear: 2024), issuer: base.authority.pai,
            issuerKey: forger)
        var info = try base.information()
        info.dacCertificate = dac.derEncoded
        info.attestationSignature = try AttestationSignature.sign(
            elements: info.attestationElements, attestationChallenge: info.attestationChallenge, dacKey: dacKey
        ).rawRepresentation
        expectAttestationFailure(301) { try base.verify(info) }
    }

    @Test("CD signed by another key [601], or by an impostor using the test key ID [602]")
    func foreignCDKey() throws {
        let base = try AttestationScenario()
        let otherKey = try P256PrivateKey()
        let unknownSigner = try base.authority.issueDevice(
            productID: AttestationScenario.productID, deviceTypeID: 0x0100, certificationDeclarationKey: otherKey)
        let scenario = try AttestationScenario(authority: base.authority, credentials: unknownSigner)
        expectAttestationFailure(601) { try scenario.verify() }

        let impostor = try base.authority.issueDevice(
            productID: AttestationScenario.productID, deviceTypeID: 0x0100, certificationDeclarationKey: otherKey,
            certificationDeclarationKeyIdentifier: try CertificationDeclarationSigningKey.sdkTest().keyIdentifier)
        let forged = try AttestationScenario(authority: base.authority, credentials: impostor)
        expectAttestationFailure(602) { try forged.verify() }

        // Trusting the other key makes the same CD acceptable.
        let trusting = try DeviceAttestationVerifier(
            trustStore: PAATrustStore(certificates: [base.authority.paa.derEncoded]),
            certificationDeclarationKeys: [try CertificationDeclarationSigningKey(publicKey: otherKey.publicKey)])
        _ = try trusting.verify(try scenario.information(), at: AttestationScenario.now)
    }

    @Test("a bad attestation signature [500], a signature of the wrong size [503]")
    func badSignature() throws {
        let scenario = try AttestationScenario()
        var signature = try scenario.information().attestationSignature
        signature[5] ^= 0x40
        expectAttestationFailure(500) { try scenario.verify(try scenario.information(signature: signature)) }
        expectAttestationFailure(500) {
            let other = try AttestationSignature.sign(
                elements: scenario.elements, attestationChallenge: scenario.challenge, dacKey: try P256PrivateKey())
            return try scenario.verify(try scenario.information(signature: other.rawRepresentation))
        }
        expectAttestationFailure(503) {
            try scenario.verify(try scenario.information(signature: Array(signature.prefix(63))))
        }
    }

    @Test("a wrong nonce [502], malformed elements [501], a malformed CD envelope [600]")
    func elements() throws {
        var scenario = try AttestationScenario()
        let signedElements = scenario.elements
        scenario.nonce = try SecureRandom.bytes(count: 32)
        expectAttestationFailure(502) { try scenario.verify(try scenario.information(elements: signedElements)) }

        let fresh = try AttestationScenario()
        var writer = TLVWriter()
        writer.putStructure { w in w.putBytes(fresh.nonce, tag: .context(2)) }
        expectAttestationFailure(501) { try fresh.verify(try fresh.information(elements: writer.bytes)) }

        let garbageCD = AttestationElements(certificationDeclaration: [0x30, 0x00], attestationNonce: fresh.nonce)
        expectAttestationFailure(600) { try fresh.verify(try fresh.information(elements: garbageCD.tlvEncoded)) }
    }

    @Test("an untrusted PAA [101]")
    func untrustedPAA() throws {
        let scenario = try AttestationScenario()
        let stranger = try TestAttestationAuthority.generate()
        expectAttestationFailure(101) { try scenario.verify(trusting: [stranger.paa]) }
        expectAttestationFailure(101) { try scenario.verify(trusting: []) }
    }

    @Test("authorized_paa_list without this PAA [606], with it accepted")
    func authorizedPAAList() throws {
        let base = try AttestationScenario()
        func credentials(listing skid: [UInt8]) throws -> DeviceAttestationCredentials {
            let declaration = CertificationDeclaration(
                vendorID: .testVendor1, productIDs: [AttestationScenario.productID], deviceTypeID: 0x0100,
                certificateID: "ZIG20142ZB330003-24", authorizedPAAList: [skid])
            let cms = try SignedCertificationDeclaration.sign(declaration, key: try sdkTestCDSigningKey())
            return try DeviceAttestationCredentials(
                dac: base.credentials.dac, dacKey: base.credentials.dacKey, pai: base.authority.pai,
                certificationDeclaration: cms.cmsEncoded)
        }
        let listed = try AttestationScenario(
            authority: base.authority,
            credentials: try credentials(listing: try #require(base.authority.paa.subjectKeyIdentifier)))
        _ = try listed.verify()
        let unlisted = try AttestationScenario(
            authority: base.authority, credentials: try credentials(listing: [UInt8](repeating: 1, count: 20)))
        expectAttestationFailure(606) { try unlisted.verify() }
    }

    @Test("CSRResponse: NOCSR elements verified with the DAC key; wrong nonce or signature refused")
    func nocsr() throws {
        let scenario = try AttestationScenario()
        let verifier = try scenario.verifier()
        let operationalKey = try P256PrivateKey()
        let csrNonce = try SecureRandom.bytes(count: 32)
        let elements = NOCSRElements(
            csr: try CertificateSigningRequest.create(key: operationalKey).derEncoded, csrNonce: csrNonce
        ).tlvEncoded
        let signature = try AttestationSignature.sign(
            elements: elements, attestationChallenge: scenario.challenge, dacKey: scenario.credentials.dacKey)
        let key = try verifier.verifyNOCSRInformation(
            nocsrElements: elements, attestationSignature: signature.rawRepresentation,
            attestationChallenge: scenario.challenge, csrNonce: csrNonce,
            dacPublicKey: scenario.credentials.dac.publicKey)
        #expect(key == operationalKey.publicKey)
        expectCredentialsError(
            "nonce mismatch",
            {
                try verifier.verifyNOCSRInformation(
                    nocsrElements: elements, attestationSignature: signature.rawRepresentation,
                    attestationChallenge: scenario.challenge, csrNonce: try SecureRandom.bytes(count: 32),
                    dacPublicKey: scenario.credentials.dac.publicKey)
            }, matches: { $0 == .nocsrNonceMismatch })
        expectCredentialsError(
            "signature",
            {
                try verifier.verifyNOCSRInformation(
                    nocsrElements: elements, attestationSignature: signature.rawRepresentation,
                    attestationChallenge: [UInt8](repeating: 0, count: 16), csrNonce: csrNonce,
                    dacPublicKey: scenario.credentials.dac.publicKey)
            }, matches: { $0 == .nocsrSignatureInvalid })
    }

    @Test("a trust store directory loads *.der files and skips others")
    func trustStoreDirectory() throws {
        let scenario = try AttestationScenario()
        let directory = try TemporaryDirectory()
        try directory.write(scenario.authority.paa.derEncoded, "paa.der")
        try directory.write([1, 2, 3], "junk.der")
        try directory.write("not a certificate", "notes.txt")
        let store = try PAATrustStore(directory: directory.url.path)
        #expect(store.certificates == [scenario.authority.paa])
        #expect(store.skippedFiles == ["junk.der"])
        _ = try DeviceAttestationVerifier(trustStore: store).verify(
            try scenario.information(), at: AttestationScenario.now)
        expectCredentialsError(
            "missing directory",
            {
                try PAATrustStore(directory: directory.url.appendingPathComponent("absent").path)
            }, matches: { if case .invalidArgument = $0 { true } else { false } })
    }
}

/// Unix seconds for a UTC midnight (tests only).
func unixSeconds(_ year: Int, _ month: Int, _ day: Int) -> Int64 {
    guard case .unixSeconds(let value) = CertificateValidationTime.date(year: year, month: month, day: day) else {
        return 0
    }
    return value
}
