import MatterCore
import MatterCrypto
import MatterTestSupport
import Testing

@testable import MatterCredentials

/// Bad bytes never trap: every truncation and many seeded random corruptions of each format either parse or throw a
/// `CredentialsError`.
@Suite("Malformed certificates, CSRs, CMS, elements and keys throw typed errors")
struct MalformedInputTests {
    private static func vectorCertificates() throws -> (tlv: [UInt8], der: [UInt8]) {
        struct Vectors: Decodable {
            struct Entry: Decodable {
                let tlv: String
                let der: String
            }
            let certificates: [Entry]
        }
        let entry = try #require(
            try VectorFile.load("operational-certificates", as: Vectors.self, in: .module).certificates.last)
        return (hex(entry.tlv), hex(entry.der))
    }

    /// Runs `parse` on every prefix and on `count` seeded corruptions of `bytes`; anything thrown must be a
    /// CredentialsError.
    private func fuzz(_ name: String, _ bytes: [UInt8], count: Int = 300, _ parse: ([UInt8]) throws -> Void) {
        var random = SeededRandom(seed: 0x5EED_0000 + UInt64(bytes.count))
        var inputs: [[UInt8]] = (0..<bytes.count).map { Array(bytes.prefix($0)) }
        for _ in 0..<count {
            var mutated = bytes
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let index = Int.random(in: 0..<mutated.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: mutated[index] = UInt8.random(in: 0...255, using: &random)
                case 1: mutated[index] ^= 0x80
                default: mutated.insert(UInt8.random(in: 0...255, using: &random), at: index)
                }
            }
            inputs.append(mutated)
        }
        inputs.append(bytes + [0x00])
        for input in inputs {
            do { try parse(input) } catch is CredentialsError {} catch {
                Issue.record("\(name): non-CredentialsError thrown: \(error)")
            }
        }
    }

    @Test("operational certificates, TLV and DER")
    func operationalCertificates() throws {
        let (tlv, der) = try Self.vectorCertificates()
        fuzz("TLV certificate", tlv) { _ = try MatterCertificate(tlv: $0).derEncoded }
        fuzz("DER certificate", der) { _ = try MatterCertificate(der: $0).tlvEncoded }
        fuzz("attestation certificate", der) { _ = try AttestationCertificate(der: $0).profileViolation(as: .dac) }
        expectCredentialsError(
            "oversized TLV", { try MatterCertificate(tlv: tlv + [UInt8](repeating: 0, count: 200)) },
            matches: {
                $0 == .certificateTooLarge(size: tlv.count + 200, limit: 400)
            })
        expectCredentialsError(
            "oversized DER", { try MatterCertificate(der: [UInt8](repeating: 0x30, count: 601)) },
            matches: {
                $0 == .certificateTooLarge(size: 601, limit: 600)
            })
    }

    @Test("DER certificates without a Matter form are refused as not representable")
    func notRepresentable() throws {
        let (_, der) = try Self.vectorCertificates()
        // Node ID as PrintableString instead of UTF8String (same length, so the DER stays well-formed).
        let marker = hex("0c104445444544454445")  // 0c 10 "DEDEDEDE"
        let index = try #require(der.indices.first { Array(der[$0...].prefix(marker.count)) == marker })
        var printable = der
        printable[index] = 0x13
        expectCredentialsError(
            "PrintableString node ID", { try MatterCertificate(der: printable) },
            matches: {
                if case .notRepresentable = $0 { true } else { false }
            })
        // A well-formed, correctly signed certificate whose basicConstraints is not critical: Matter's TLV cannot
        // say that, so the DER would not be reproduced.
        let key = try P256PrivateKey()
        let name = MatterDistinguishedName([.rcacID(1)]).derEncoded
        let keyID = try CertificateIdentifiers.keyIdentifier(key.publicKey.x963Representation)
        let tbs = X509Builder.tbsCertificate(
            serialNumber: [0x01], issuer: name, notBefore: try X509Time.encode(1_700_000_000),
            notAfter: try X509Time.encode(X509Time.noWellDefinedExpiration), subject: name,
            publicKey: key.publicKey.x963Representation,
            extensions: [
                X509Builder.extensionDER(
                    OID.basicConstraints, critical: false,
                    value: DERWriter.sequence([DERWriter.boolean(true)])),
                X509Builder.keyUsage([.keyCertSign, .cRLSign]), X509Builder.subjectKeyIdentifier(keyID),
                X509Builder.authorityKeyIdentifier(keyID),
            ])
        let nonCritical = X509Builder.certificate(
            tbs: tbs, signatureDER: try key.signature(for: tbs).derRepresentation())
        _ = try AttestationCertificate(der: nonCritical)  // well-formed X.509
        expectCredentialsError(
            "non-critical basicConstraints", { try MatterCertificate(der: nonCritical) },
            matches: {
                if case .notRepresentable = $0 { true } else { false }
            })
    }

    @Test("an unknown extension travels as a future extension, TLV ⇄ DER")
    func futureExtension() throws {
        let authority = try FabricAuthority.create(fabricID: FabricID(1), rcacID: 1)
        var noc = try authority.issueNOC(publicKey: try P256PrivateKey().publicKey, nodeID: NodeID(2))
        let custom = X509Builder.extensionDER(
            [0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0xA2, 0x7C, 0x63, 0x01],
            critical: false, value: DERWriter.octetString([0xCA, 0xFE]))
        noc.extensions.append(.future(custom))
        noc = try noc.signed(with: authority.rootKey)
        let der = try noc.derEncoded
        let back = try MatterCertificate(der: der)
        #expect(back == noc)
        #expect(back.extensions.last == .future(custom))
        #expect(try MatterCertificate(tlv: back.tlvEncoded).derEncoded == der)
        _ = try OperationalCertificateValidator.validateChain(
            noc: back, icac: nil, rcac: authority.rootCertificate,
            at: .unavailable)
    }

    @Test("CSR, CMS, NOCSR and attestation elements")
    func otherFormats() throws {
        let key = try P256PrivateKey()
        let csr = try CertificateSigningRequest.create(key: key).derEncoded
        fuzz("CSR", csr) { _ = try CertificateSigningRequest(der: $0) }
        let declaration = CertificationDeclaration(
            vendorID: .testVendor1, productIDs: [ProductID(0x8001)], deviceTypeID: 0x0100,
            certificateID: "ZIG20142ZB330003-24", dacOriginVendorID: .testVendor1,
            dacOriginProductID: ProductID(0x8001),
            authorizedPAAList: [[UInt8](repeating: 3, count: 20)])
        let cms = try SignedCertificationDeclaration.sign(declaration, key: key).cmsEncoded
        fuzz("CMS", cms) { _ = try SignedCertificationDeclaration(cms: $0).declaration() }
        fuzz("CD TLV", declaration.tlvEncoded) { _ = try CertificationDeclaration(tlv: $0) }
        let nonce = [UInt8](repeating: 7, count: 32)
        fuzz("NOCSR", NOCSRElements(csr: csr, csrNonce: nonce, vendorReserved2: [1]).tlvEncoded) {
            _ = try NOCSRElements(tlv: $0)
        }
        fuzz(
            "attestation elements",
            AttestationElements(
                certificationDeclaration: cms, attestationNonce: nonce,
                timestamp: 5, firmwareInformation: [1]
            ).tlvEncoded
        ) {
            _ = try AttestationElements(tlv: $0)
        }
    }

    @Test("PEM keys and certificates")
    func pem() throws {
        let text = try PEM.encode(privateKey: try P256PrivateKey())
        fuzz("PEM key", Array(text.utf8), count: 200) { _ = try PEM.privateKey(String(decoding: $0, as: UTF8.self)) }
        expectCredentialsError(
            "a certificate where a key belongs",
            {
                try PEM.privateKey(PEM.encode([0x30, 0x00], label: PEM.ecPrivateKeyLabel))
            }, matches: { if case .crypto = $0 { true } else { false } })
    }
}
