import MatterCore
import MatterCredentials
import MatterCrypto
import MatterTestSupport
import Testing

/// One certificate rule broken at a time: the chain is rebuilt with the change and re-signed by the right key, so
/// only the rule under test fails.
@Suite("Operational chain rules: each violation has its own error")
struct ChainRuleTests {
    static let now = CertificateValidationTime.date(year: 2026, month: 6, day: 1)

    struct Chain {
        let authority: FabricAuthority
        var rcac: MatterCertificate
        var icac: MatterCertificate
        var noc: MatterCertificate
        let rootKey: P256PrivateKey
        let icacKey: P256PrivateKey

        init() throws {
            authority = try FabricAuthority.create(fabricID: FabricID(0x1D), rcacID: 1, icacID: 2)
            rcac = authority.rootCertificate
            icac = try #require(authority.intermediateCertificate)
            rootKey = authority.rootKey
            icacKey = try #require(authority.intermediateKey)
            noc = try authority.issueNOC(
                publicKey: try P256PrivateKey().publicKey, nodeID: NodeID(0x42),
                caseAuthenticatedTags: [CASEAuthenticatedTag(identifier: 1, version: 1)])
        }

        mutating func editNOC(_ change: (inout MatterCertificate) -> Void) throws {
            change(&noc)
            noc = try noc.signed(with: icacKey)
        }

        mutating func editICAC(_ change: (inout MatterCertificate) -> Void) throws {
            change(&icac)
            icac = try icac.signed(with: rootKey)
        }

        mutating func editRCAC(_ change: (inout MatterCertificate) -> Void) throws {
            change(&rcac)
            rcac = try rcac.signed(with: rootKey)
        }

        func validate(at time: CertificateValidationTime = ChainRuleTests.now) throws -> OperationalIdentity {
            try OperationalCertificateValidator.validateChain(noc: noc, icac: icac, rcac: rcac, at: time)
        }
    }

    private func expectRule(
        _ description: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ edit: (inout Chain) throws -> Void, matches: (CredentialsError) -> Bool
    ) throws {
        var chain = try Chain()
        _ = try chain.validate()
        try edit(&chain)
        expectCredentialsError(description, sourceLocation: sourceLocation, { try chain.validate() }, matches: matches)
    }

    @Test("subject attributes per role")
    func subjectRules() throws {
        try expectRule(
            "NOC without node ID", { try $0.editNOC { $0.subject.attributes.removeFirst() } },
            matches: {
                if case .wrongCertificateType(role: .noc, _) = $0 { true } else { false }
            })
        try expectRule(
            "NOC with a non-operational node ID",
            {
                try $0.editNOC { $0.subject.attributes[0] = .nodeID(0xFFFF_FFFF_0000_0001) }
            }, matches: { $0 == .invalidNodeID(0xFFFF_FFFF_0000_0001) })
        try expectRule(
            "NOC without fabric ID", { try $0.editNOC { $0.subject.attributes.remove(at: 1) } },
            matches: {
                $0 == .invalidFabricID(role: .noc)
            })
        try expectRule(
            "NOC with fabric ID 0", { try $0.editNOC { $0.subject.attributes[1] = .fabricID(0) } },
            matches: {
                $0 == .invalidFabricID(role: .noc)
            })
        try expectRule(
            "NOC with two node IDs", { try $0.editNOC { $0.subject.attributes.append(.nodeID(0x43)) } },
            matches: {
                $0 == .duplicateAttribute(role: .noc, attribute: "matter-node-id")
            })
        try expectRule(
            "NOC with a CAT of version 0",
            {
                try $0.editNOC {
                    $0.subject.attributes[2] = .caseAuthenticatedTag(CASEAuthenticatedTag(rawValue: 0x0005_0000))
                }
            }, matches: { $0 == .invalidCASEAuthenticatedTag(0x0005_0000) })
        try expectRule(
            "NOC with four CATs",
            {
                try $0.editNOC {
                    $0.subject.attributes += (2...4).map {
                        .caseAuthenticatedTag(CASEAuthenticatedTag(identifier: UInt16($0), version: 1))
                    }
                }
            }, matches: { $0 == .tooManyCASEAuthenticatedTags(count: 4) })
        try expectRule(
            "ICAC carrying a CAT",
            {
                try $0.editICAC {
                    $0.subject.attributes.append(.caseAuthenticatedTag(CASEAuthenticatedTag(rawValue: 0x10001)))
                }
            }, matches: { if case .wrongCertificateType(role: .icac, _) = $0 { true } else { false } })
        try expectRule(
            "RCAC that also carries a node ID",
            {
                try $0.editRCAC {
                    $0.subject.attributes.append(.nodeID(1))
                    $0.issuer = $0.subject
                }
            }, matches: { if case .wrongCertificateType(role: .rcac, _) = $0 { true } else { false } })
        try expectRule(
            "ICAC subject with an RCAC ID instead of an ICAC ID",
            {
                try $0.editICAC { $0.subject = MatterDistinguishedName([.rcacID(2)]) }
            }, matches: { if case .wrongCertificateType(role: .icac, _) = $0 { true } else { false } })
    }

    @Test("a CA fabric ID must equal the NOC's")
    func fabricAgreement() throws {
        var chain = try Chain()
        try chain.editICAC { $0.subject.attributes.append(.fabricID(0x99)) }
        let newIssuer = chain.icac.subject
        try chain.editNOC { $0.issuer = newIssuer }
        expectCredentialsError(
            "fabric mismatch", { try chain.validate() },
            matches: {
                $0 == .fabricIDMismatch(role: .icac, expected: 0x1D, found: 0x99)
            })
    }

    @Test("issuer names and key identifiers must chain")
    func linkRules() throws {
        try expectRule(
            "NOC issuer that is not the ICAC subject",
            {
                try $0.editNOC { $0.issuer = MatterDistinguishedName([.icacID(3)]) }
            }, matches: { $0 == .issuerMismatch(role: .noc) })
        try expectRule(
            "RCAC that is not self-issued",
            {
                try $0.editRCAC { $0.issuer = MatterDistinguishedName([.rcacID(9)]) }
            }, matches: { $0 == .issuerMismatch(role: .rcac) })
        try expectRule(
            "NOC AKID that is not the ICAC SKID",
            {
                try $0.editNOC {
                    $0.extensions = $0.extensions.map {
                        if case .authorityKeyIdentifier = $0 {
                            .authorityKeyIdentifier([UInt8](repeating: 7, count: 20))
                        } else {
                            $0
                        }
                    }
                }
            }, matches: { $0 == .authorityKeyIdentifierMismatch(role: .noc) })
        try expectRule(
            "RCAC whose AKID differs from its SKID",
            {
                try $0.editRCAC {
                    $0.extensions = $0.extensions.map {
                        if case .authorityKeyIdentifier = $0 {
                            .authorityKeyIdentifier([UInt8](repeating: 7, count: 20))
                        } else {
                            $0
                        }
                    }
                }
            }, matches: { $0 == .authorityKeyIdentifierMismatch(role: .rcac) })
        try expectRule(
            "NOC without SKID",
            {
                try $0.editNOC {
                    $0.extensions.removeAll { if case .subjectKeyIdentifier = $0 { true } else { false } }
                }
            }, matches: { $0 == .missingKeyIdentifier(role: .noc, authority: false) })
        try expectRule(
            "ICAC without AKID",
            {
                try $0.editICAC {
                    $0.extensions.removeAll { if case .authorityKeyIdentifier = $0 { true } else { false } }
                }
            }, matches: { $0 == .missingKeyIdentifier(role: .icac, authority: true) })
    }

    @Test("basic constraints, key usage and extended key usage per role")
    func extensionRules() throws {
        try expectRule(
            "ICAC that is not a CA",
            {
                try $0.editICAC { $0.extensions[0] = .basicConstraints(isCA: false, pathLengthConstraint: nil) }
            }, matches: { if case .invalidBasicConstraints(role: .icac, _) = $0 { true } else { false } })
        try expectRule(
            "NOC that is a CA",
            {
                try $0.editNOC { $0.extensions[0] = .basicConstraints(isCA: true, pathLengthConstraint: nil) }
            }, matches: { if case .invalidBasicConstraints(role: .noc, _) = $0 { true } else { false } })
        try expectRule(
            "RCAC with path length 2",
            {
                try $0.editRCAC { $0.extensions[0] = .basicConstraints(isCA: true, pathLengthConstraint: 2) }
            }, matches: { if case .invalidBasicConstraints(role: .rcac, _) = $0 { true } else { false } })
        try expectRule(
            "RCAC with path length 0 above an ICAC",
            {
                try $0.editRCAC { $0.extensions[0] = .basicConstraints(isCA: true, pathLengthConstraint: 0) }
            }, matches: { if case .invalidBasicConstraints(role: .icac, _) = $0 { true } else { false } })
        try expectRule(
            "RCAC without basicConstraints", { try $0.editRCAC { $0.extensions.removeFirst() } },
            matches: {
                if case .invalidBasicConstraints(role: .rcac, _) = $0 { true } else { false }
            })
        try expectRule(
            "ICAC without keyCertSign", { try $0.editICAC { $0.extensions[1] = .keyUsage(.cRLSign) } },
            matches: {
                if case .invalidKeyUsage(role: .icac, _) = $0 { true } else { false }
            })
        try expectRule(
            "NOC with keyCertSign",
            {
                try $0.editNOC { $0.extensions[1] = .keyUsage([.digitalSignature, .keyCertSign]) }
            }, matches: { if case .invalidKeyUsage(role: .noc, _) = $0 { true } else { false } })
        try expectRule(
            "NOC without digitalSignature", { try $0.editNOC { $0.extensions[1] = .keyUsage(.keyAgreement) } },
            matches: {
                if case .invalidKeyUsage(role: .noc, _) = $0 { true } else { false }
            })
        try expectRule(
            "NOC without serverAuth", { try $0.editNOC { $0.extensions[2] = .extendedKeyUsage([.clientAuth]) } },
            matches: {
                if case .invalidExtendedKeyUsage(role: .noc, _) = $0 { true } else { false }
            })
    }

    @Test("validity is checked against the given time, and skipped without a clock")
    func validityRules() throws {
        try expectRule(
            "NOC expired",
            {
                try $0.editNOC { $0.notAfter = MatterEpoch.seconds(year: 2025, month: 1, day: 1) }
            }, matches: { $0 == .certificateExpired(role: .noc) })
        try expectRule(
            "ICAC not yet valid",
            {
                try $0.editICAC { $0.notBefore = MatterEpoch.seconds(year: 2027, month: 1, day: 1) }
            }, matches: { $0 == .certificateNotYetValid(role: .icac) })
        var chain = try Chain()
        try chain.editNOC { $0.notAfter = MatterEpoch.seconds(year: 2025, month: 1, day: 1) }
        #expect(try chain.validate(at: .unavailable).nodeID == NodeID(0x42))
    }

    @Test("signatures: a change after signing, or the wrong signer, is caught")
    func signatureRules() throws {
        var chain = try Chain()
        chain.noc.subject.attributes[0] = .nodeID(0x43)  // not re-signed
        expectCredentialsError(
            "NOC signature", { try chain.validate() }, matches: { $0 == .invalidSignature(role: .noc) })
        var wrongSigner = try Chain()
        wrongSigner.icac = try wrongSigner.icac.signed(with: try P256PrivateKey())
        expectCredentialsError(
            "ICAC signature", { try wrongSigner.validate() },
            matches: {
                $0 == .invalidSignature(role: .icac)
            })
        var badRoot = try Chain()
        badRoot.rcac.signature[10] ^= 0xFF
        expectCredentialsError(
            "RCAC signature", { try badRoot.validate() }, matches: { $0 == .invalidSignature(role: .rcac) })
    }

    @Test("a public key off the curve is refused")
    func publicKeyRule() throws {
        try expectRule(
            "NOC key off the curve",
            {
                try $0.editNOC { $0.publicKey = [0x04] + [UInt8](repeating: 1, count: 64) }
            }, matches: { if case .invalidPublicKey(role: .noc, _) = $0 { true } else { false } })
    }
}
