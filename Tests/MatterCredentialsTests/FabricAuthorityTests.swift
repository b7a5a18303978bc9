import MatterCore
import MatterCredentials
import MatterCrypto
import MatterTestSupport
import Testing

@Suite("Fabric authority: issuing and validating RCAC → [ICAC →] NOC")
struct FabricAuthorityTests {
    static let fabric = FabricID(0xFAB0_0000_0000_001D)
    static let now = CertificateValidationTime.date(year: 2026, month: 6, day: 1)

    @Test("a root-only fabric issues a NOC that validates, with the SDK extension order")
    func rootOnlyChain() throws {
        let authority = try FabricAuthority.create(fabricID: Self.fabric, rcacID: 0xCACA_CACA_0000_0001)
        let deviceKey = try P256PrivateKey()
        let cat = CASEAuthenticatedTag(identifier: 0xABCD, version: 2)
        let noc = try authority.issueNOC(
            publicKey: deviceKey.publicKey, nodeID: NodeID(0xDEDE_DEDE_0001_0002), caseAuthenticatedTags: [cat])
        let identity = try OperationalCertificateValidator.validateChain(
            noc: noc, icac: nil, rcac: authority.rootCertificate, at: Self.now)
        #expect(identity.nodeID == NodeID(0xDEDE_DEDE_0001_0002))
        #expect(identity.fabricID == Self.fabric)
        #expect(identity.caseAuthenticatedTags == [cat])
        #expect(identity.publicKey == deviceKey.publicKey)
        #expect(identity.rootPublicKey == authority.rootKey.publicKey)
        let order = noc.extensions.map { ext -> Int in
            switch ext {
            case .basicConstraints: 1
            case .keyUsage: 2
            case .extendedKeyUsage: 3
            case .subjectKeyIdentifier: 4
            case .authorityKeyIdentifier: 5
            case .future: 6
            }
        }
        #expect(order == [1, 2, 3, 4, 5])
        #expect(noc.extendedKeyUsage == [.clientAuth, .serverAuth])
        // TLV ⇄ DER round trips for issued certificates too, and TLV stays under the SDK's 400-byte limit.
        for certificate in [authority.rootCertificate, noc] {
            #expect(try MatterCertificate(der: certificate.derEncoded) == certificate)
            #expect(try MatterCertificate(tlv: certificate.tlvEncoded) == certificate)
            #expect(certificate.tlvEncoded.count <= MatterCertificate.maximumTLVByteCount)
        }
    }

    @Test("a fabric with an ICAC validates, and OpenSSL accepts the DER chain")
    func intermediateChain() throws {
        let authority = try FabricAuthority.create(
            fabricID: Self.fabric, rcacID: 1, icacID: 2, includeFabricIDInCAs: true)
        let icac = try #require(authority.intermediateCertificate)
        let noc = try authority.issueNOC(publicKey: try P256PrivateKey().publicKey, nodeID: NodeID(0x1234))
        let identity = try OperationalCertificateValidator.validateChain(
            noc: noc, icac: icac, rcac: authority.rootCertificate, at: Self.now)
        #expect(identity.nodeID == NodeID(0x1234))
        #expect(noc.issuer == icac.subject)
        #expect(noc.authorityKeyIdentifier == icac.subjectKeyIdentifier)
    }

    @Test(
        "OpenSSL's strict verifier accepts the DER form of an issued RCAC → ICAC → NOC chain",
        .enabled(if: OpenSSLCLI.isAvailable, "/usr/bin/openssl is missing"))
    func opensslAcceptsChain() throws {
        let authority = try FabricAuthority.create(fabricID: Self.fabric, rcacID: 1, icacID: 2)
        let icac = try #require(authority.intermediateCertificate)
        let noc = try authority.issueNOC(publicKey: try P256PrivateKey().publicKey, nodeID: NodeID(0x1234))
        let directory = try TemporaryDirectory()
        try directory.write(
            PEM.encode(try authority.rootCertificate.derEncoded, label: PEM.certificateLabel), "rcac.pem")
        try directory.write(PEM.encode(try icac.derEncoded, label: PEM.certificateLabel), "icac.pem")
        try directory.write(PEM.encode(try noc.derEncoded, label: PEM.certificateLabel), "noc.pem")
        let result = try OpenSSLCLI.run(
            ["verify", "-x509_strict", "-CAfile", "rcac.pem", "-untrusted", "icac.pem", "noc.pem"], in: directory.url)
        #expect(result.status == 0, "openssl verify: \(result.output)")
        #expect(result.output.contains("noc.pem: OK"))
    }

    @Test("a NOC is issued from a verified CSR, and a tampered CSR is refused")
    func issueFromCSR() throws {
        let authority = try FabricAuthority.create(fabricID: Self.fabric, rcacID: 7)
        let deviceKey = try P256PrivateKey()
        let csr = try CertificateSigningRequest.create(key: deviceKey)
        let noc = try authority.issueNOC(csr: csr.derEncoded, nodeID: NodeID(5))
        #expect(noc.publicKey == deviceKey.publicKey.x963Representation)
        var tampered = csr.derEncoded
        tampered[tampered.count - 3] ^= 0x01
        expectCredentialsError(
            "CSR signature failure", { try authority.issueNOC(csr: tampered, nodeID: NodeID(5)) },
            matches: {
                $0 == .csrSignatureInvalid
            })
    }

    @Test("key identifiers are SHA-1 of the public key, as in the SDK's Root01 (SKID CC1308AF…)")
    func keyIdentifierMethod() throws {
        struct Vectors: Decodable {
            struct Entry: Decodable {
                let name: String
                let tlv: String
            }
            let certificates: [Entry]
        }
        let entries = try VectorFile.load("operational-certificates", as: Vectors.self, in: .module).certificates
        let root01 = try MatterCertificate(tlv: hex(try #require(entries.first { $0.name == "Root01" }).tlv))
        let authority = try FabricAuthority.create(fabricID: Self.fabric, rcacID: 7)
        let noc = try authority.issueNOC(publicKey: try root01.publicKeyValue(), nodeID: NodeID(1))
        #expect(noc.subjectKeyIdentifier == root01.subjectKeyIdentifier)
        #expect(noc.subjectKeyIdentifier.map(hexString) == "cc1308af82cfee505eb23b57bfe86a311665535f")
    }

    @Test("issuing refuses a non-operational node ID and bad CATs")
    func issueArguments() throws {
        let authority = try FabricAuthority.create(fabricID: Self.fabric, rcacID: 7)
        let key = try P256PrivateKey().publicKey
        expectCredentialsError(
            "invalid node ID", { try authority.issueNOC(publicKey: key, nodeID: NodeID(0)) },
            matches: {
                $0 == .invalidNodeID(0)
            })
        expectCredentialsError(
            "invalid node ID",
            {
                try authority.issueNOC(publicKey: key, nodeID: NodeID(0xFFFF_FFF0_0000_0000))
            }, matches: { $0 == .invalidNodeID(0xFFFF_FFF0_0000_0000) })
        expectCredentialsError(
            "CAT version 0",
            {
                try authority.issueNOC(
                    publicKey: key, nodeID: NodeID(1),
                    caseAuthenticatedTags: [CASEAuthenticatedTag(rawValue: 0x0001_0000)])
            }, matches: { $0 == .invalidCASEAuthenticatedTag(0x0001_0000) })
        let four = (1...4).map { CASEAuthenticatedTag(identifier: UInt16($0), version: 1) }
        expectCredentialsError(
            "too many CATs",
            {
                try authority.issueNOC(publicKey: key, nodeID: NodeID(1), caseAuthenticatedTags: four)
            }, matches: { $0 == .tooManyCASEAuthenticatedTags(count: 4) })
        let twins = [CASEAuthenticatedTag(identifier: 9, version: 1), CASEAuthenticatedTag(identifier: 9, version: 2)]
        expectCredentialsError(
            "duplicate CAT identifier",
            {
                try authority.issueNOC(publicKey: key, nodeID: NodeID(1), caseAuthenticatedTags: twins)
            }, matches: { $0 == .duplicateCASEAuthenticatedTagIdentifier(9) })
    }

    @Test("an authority restored from its parts matches, and mismatched keys are refused")
    func restore() throws {
        let authority = try FabricAuthority.create(fabricID: Self.fabric, rcacID: 1, icacID: 2)
        let restored = try FabricAuthority(
            fabricID: Self.fabric, rootKey: authority.rootKey,
            rootCertificate: try MatterCertificate(tlv: authority.rootCertificate.tlvEncoded),
            intermediateKey: authority.intermediateKey, intermediateCertificate: authority.intermediateCertificate)
        #expect(restored.rootCertificate == authority.rootCertificate)
        expectCredentialsError(
            "key mismatch",
            {
                try FabricAuthority(
                    fabricID: Self.fabric, rootKey: try P256PrivateKey(),
                    rootCertificate: authority.rootCertificate)
            }, matches: { $0 == .publicKeyMismatch })
    }
}
