import MatterCore
import MatterCredentials
import MatterCrypto
import MatterTestSupport
import Testing

private struct CertificateVectors: Decodable {
    struct Entry: Decodable {
        let name: String
        let issuer: String?
        let tlv: String
        let der: String
    }
    let certificates: [Entry]
}

@Suite("Operational certificate vectors (SDK TLV ⇄ DER pairs)")
struct OperationalCertificateVectorTests {
    private static func vectors() throws -> [CertificateVectors.Entry] {
        try VectorFile.load("operational-certificates", as: CertificateVectors.self, in: .module).certificates
    }

    @Test("TLV → DER is byte-exact and DER → TLV is byte-exact")
    func roundTrips() throws {
        let entries = try Self.vectors()
        #expect(entries.count >= 7)
        for entry in entries {
            let tlv = hex(entry.tlv)
            let der = hex(entry.der)
            let fromTLV = try MatterCertificate(tlv: tlv)
            #expect(try fromTLV.derEncoded == der, "\(entry.name): TLV → DER")
            #expect(fromTLV.tlvEncoded == tlv, "\(entry.name): TLV → model → TLV")
            let fromDER = try MatterCertificate(der: der)
            #expect(fromDER == fromTLV, "\(entry.name): DER → model")
            #expect(fromDER.tlvEncoded == tlv, "\(entry.name): DER → TLV")
        }
    }

    @Test("each signature verifies over the rebuilt TBSCertificate with its issuer's key")
    func signaturesVerify() throws {
        let entries = try Self.vectors()
        var byName: [String: MatterCertificate] = [:]
        for entry in entries { byName[entry.name] = try MatterCertificate(tlv: hex(entry.tlv)) }
        for entry in entries {
            let certificate = try #require(byName[entry.name])
            guard let issuerName = entry.issuer else { continue }
            let issuer = try #require(byName[issuerName])
            #expect(try certificate.isSignatureValid(issuerPublicKey: issuer.publicKeyValue()), "\(entry.name)")
            // TBS is the DER certificate's first element (bytes 4 ..< 4 + TBS length for these sizes).
            let der = hex(entry.der)
            let tbs = try certificate.tbsDER
            #expect(Array(der[4..<(4 + tbs.count)]) == tbs, "\(entry.name): TBS is embedded in the DER")
            var tampered = certificate
            tampered.notBefore += 1
            #expect(try !tampered.isSignatureValid(issuerPublicKey: issuer.publicKeyValue()), "\(entry.name) tampered")
        }
    }

    @Test("Root01 and Node01_02 decode to the documented fields")
    func decodedFields() throws {
        let entries = try Self.vectors()
        let root = try MatterCertificate(tlv: hex(try #require(entries.first { $0.name == "Root01" }).tlv))
        #expect(root.subject.rcacID == 0xCACA_CACA_0000_0001)
        #expect(root.issuer == root.subject)
        #expect(root.basicConstraints?.isCA == true)
        #expect(root.keyUsage == [.keyCertSign, .cRLSign])
        #expect(root.subjectKeyIdentifier == root.authorityKeyIdentifier)
        #expect(root.notBefore == 0x271B_17EF)
        let node = try MatterCertificate(tlv: hex(try #require(entries.first { $0.name == "Node01_02" }).tlv))
        #expect(node.subject.nodeID == NodeID(0xDEDE_DEDE_0001_0002))
        #expect(node.subject.fabricID == FabricID(0xFAB0_0000_0000_001D))
        #expect(node.extendedKeyUsage == [.clientAuth, .serverAuth])
        #expect(node.keyUsage == .digitalSignature)
        #expect(node.basicConstraints?.isCA == false)
        #expect(node.authorityKeyIdentifier == root.subjectKeyIdentifier)
    }

    @Test("Root03 mini-vector: not-after 0 expands to GeneralizedTime 99991231235959Z")
    func noExpiryValidity() throws {
        let entries = try Self.vectors()
        var root = try MatterCertificate(tlv: hex(try #require(entries.first { $0.name == "Root01" }).tlv))
        root.notBefore = 0x271B_17EF
        root.notAfter = 0
        let tbs = try root.tbsDER
        let validity = hex("3020170d3230313031353134323334335a180f39393939313233313233353935395a")
        #expect(tbs.indices.contains { Array(tbs[$0...].prefix(validity.count)) == validity })
    }

    @Test("SDK chains validate: Root01 → Node01_02 and Root01 → ICA01 → Node01_01; FWSign01 is not a NOC")
    func sdkChains() throws {
        let entries = try Self.vectors()
        var byName: [String: MatterCertificate] = [:]
        for entry in entries { byName[entry.name] = try MatterCertificate(tlv: hex(entry.tlv)) }
        let root = try #require(byName["Root01"])
        let time = CertificateValidationTime.date(year: 2026, month: 1, day: 1)
        let direct = try OperationalCertificateValidator.validateChain(
            noc: try #require(byName["Node01_02"]), icac: nil, rcac: root, at: time)
        #expect(direct.nodeID == NodeID(0xDEDE_DEDE_0001_0002))
        let viaICAC = try OperationalCertificateValidator.validateChain(
            noc: try #require(byName["Node01_01"]), icac: byName["ICA01"], rcac: root, at: time)
        #expect(viaICAC.nodeID == NodeID(0xDEDE_DEDE_0001_0001))
        #expect(viaICAC.fabricID == FabricID(0xFAB0_0000_0000_001D))
        #expect(byName["ICA02"]?.basicConstraints?.pathLengthConstraint == 0)
        #expect(byName["FWSign01"]?.subject.firmwareSigningID == 0xFFFF_FFFF_0000_0001)
        #expect(byName["FWSign01"]?.extendedKeyUsage == [.codeSigning])
        expectCredentialsError(
            "firmware-signing certificate as NOC",
            {
                try OperationalCertificateValidator.validateChain(
                    noc: try #require(byName["FWSign01"]), icac: byName["ICA01_1"], rcac: root, at: time)
            }, matches: { if case .wrongCertificateType(role: .noc, _) = $0 { true } else { false } })
        expectCredentialsError(
            "NOC under the wrong ICAC",
            {
                try OperationalCertificateValidator.validateChain(
                    noc: try #require(byName["Node01_02"]), icac: byName["ICA01"], rcac: root, at: time)
            }, matches: { $0 == .issuerMismatch(role: .noc) })
        expectCredentialsError(
            "after notAfter (2040-10-15)",
            {
                try OperationalCertificateValidator.validateChain(
                    noc: try #require(byName["Node01_02"]), icac: nil, rcac: root,
                    at: .date(year: 2041, month: 1, day: 1))
            }, matches: { $0 == .certificateExpired(role: .rcac) })
    }
}
