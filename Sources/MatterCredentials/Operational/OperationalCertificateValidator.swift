package import MatterCore
package import MatterCrypto

/// What a validated NOC chain establishes about its subject.
package struct OperationalIdentity: Hashable, Sendable {
    package let nodeID: NodeID
    package let fabricID: FabricID
    package let caseAuthenticatedTags: [CASEAuthenticatedTag]
    /// The NOC's public key (the node's operational key).
    package let publicKey: P256PublicKey
    /// The root's public key (with the fabric ID, it names the fabric: compressed fabric ID).
    package let rootPublicKey: P256PublicKey

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.nodeID == rhs.nodeID && lhs.fabricID == rhs.fabricID
            && lhs.caseAuthenticatedTags == rhs.caseAuthenticatedTags
            && lhs.publicKey == rhs.publicKey && lhs.rootPublicKey == rhs.rootPublicKey
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(nodeID)
        hasher.combine(fabricID)
        hasher.combine(publicKey.x963Representation)
    }
}

/// Matter's rules for operational certificate chains RCAC → [ICAC →] NOC (what AddTrustedRootCertificate,
/// AddNOC and CASE check). Each broken rule throws its own ``CredentialsError`` naming the certificate's role.
///
/// | | RCAC | ICAC | NOC |
/// |---|---|---|---|
/// | subject must carry | matter-rcac-id | matter-icac-id | matter-node-id (operational) + matter-fabric-id |
/// | may carry | fabric-id | fabric-id | ≤ 3 CATs (version ≠ 0, distinct identifiers), string attributes |
/// | issuer | its own subject | RCAC subject | ICAC (or RCAC) subject |
/// | basicConstraints | CA, pathLen absent or ≤ 1 | CA | not CA |
/// | keyUsage | keyCertSign | keyCertSign | digitalSignature, no keyCertSign |
/// | extKeyUsage | — | — | clientAuth and serverAuth |
/// | SKID / AKID | both, equal | both | both |
///
/// Also: each AKID equals the parent's SKID; each signature verifies with the parent's key (the RCAC's with its
/// own); a fabric ID in the RCAC or ICAC equals the NOC's; each certificate is valid at the given time.
package enum OperationalCertificateValidator {
    /// Validates a full chain and returns the identity it proves.
    package static func validateChain(
        noc: MatterCertificate, icac: MatterCertificate?, rcac: MatterCertificate, at time: CertificateValidationTime
    ) throws(CredentialsError) -> OperationalIdentity {
        try validateRoot(rcac, at: time)
        let rootKey = try publicKey(rcac, .rcac)
        var parent = rcac
        var parentKey = rootKey
        if let icac {
            try checkSubject(icac, .icac)
            try checkExtensions(icac, .icac)
            if let pathLength = rcac.basicConstraints?.pathLengthConstraint, pathLength == 0 {
                throw .invalidBasicConstraints(role: .icac, reason: "the RCAC's path length 0 forbids an intermediate")
            }
            try checkLink(icac, .icac, parent: rcac, parentKey: rootKey, at: time)
            parent = icac
            parentKey = try publicKey(icac, .icac)
        }
        try checkSubject(noc, .noc)
        try checkExtensions(noc, .noc)
        try checkLink(noc, .noc, parent: parent, parentKey: parentKey, at: time)
        guard let nodeID = noc.subject.nodeID, let fabricID = noc.subject.fabricID else {
            throw .wrongCertificateType(role: .noc, reason: "no matter-node-id or matter-fabric-id")
        }
        for (certificate, role) in [(rcac, CertificateRole.rcac)] + (icac.map { [($0, CertificateRole.icac)] } ?? []) {
            if let caFabric = certificate.subject.fabricID, caFabric != fabricID {
                throw .fabricIDMismatch(role: role, expected: fabricID.rawValue, found: caFabric.rawValue)
            }
        }
        return OperationalIdentity(
            nodeID: nodeID, fabricID: fabricID, caseAuthenticatedTags: noc.subject.caseAuthenticatedTags,
            publicKey: try publicKey(noc, .noc), rootPublicKey: rootKey)
    }

    /// Validates a root on its own: subject, extensions, self-issued and self-signed, validity.
    package static func validateRoot(_ rcac: MatterCertificate, at time: CertificateValidationTime)
        throws(CredentialsError)
    {
        try checkSubject(rcac, .rcac)
        try checkExtensions(rcac, .rcac)
        if let pathLength = rcac.basicConstraints?.pathLengthConstraint, pathLength > 1 {
            throw .invalidBasicConstraints(role: .rcac, reason: "path length \(pathLength) is above 1")
        }
        guard rcac.subjectKeyIdentifier == rcac.authorityKeyIdentifier else {
            throw .authorityKeyIdentifierMismatch(role: .rcac)
        }
        try checkLink(rcac, .rcac, parent: rcac, parentKey: try publicKey(rcac, .rcac), at: time)
    }

    /// CAT rules for a NOC: at most 3, version ≠ 0, distinct identifiers.
    static func checkCATs(_ cats: [CASEAuthenticatedTag]) throws(CredentialsError) {
        guard cats.count <= 3 else { throw .tooManyCASEAuthenticatedTags(count: cats.count) }
        var identifiers = Set<UInt16>()
        for cat in cats {
            guard cat.isValid else { throw .invalidCASEAuthenticatedTag(cat.rawValue) }
            guard identifiers.insert(cat.identifier).inserted else {
                throw .duplicateCASEAuthenticatedTagIdentifier(cat.identifier)
            }
        }
    }

    // MARK: Rules

    private static func checkSubject(_ certificate: MatterCertificate, _ role: CertificateRole) throws(CredentialsError)
    {
        var counts: [String: Int] = [:]
        for attribute in certificate.subject.attributes {
            switch attribute {
            case .text: continue
            case .caseAuthenticatedTag:
                guard role == .noc else {
                    throw .wrongCertificateType(role: role, reason: "only a NOC may carry matter-noc-cat")
                }
            default:
                counts[attribute.name, default: 0] += 1
                if counts[attribute.name, default: 0] > 1 {
                    throw .duplicateAttribute(role: role, attribute: attribute.name)
                }
            }
        }
        let typeAttributes = ["matter-node-id", "matter-firmware-signing-id", "matter-icac-id", "matter-rcac-id"]
            .filter { counts[$0] != nil }
        let required =
            switch role {
            case .rcac: "matter-rcac-id"
            case .icac: "matter-icac-id"
            case .noc: "matter-node-id"
            }
        guard typeAttributes == [required] else {
            throw .wrongCertificateType(
                role: role,
                reason: typeAttributes.isEmpty
                    ? "the subject has no \(required)"
                    : "the subject carries \(typeAttributes.joined(separator: ", ")), exactly \(required) is required")
        }
        if let fabricID = certificate.subject.fabricID, fabricID.rawValue == 0 { throw .invalidFabricID(role: role) }
        if role == .noc {
            guard let nodeID = certificate.subject.nodeID, nodeID.isOperational else {
                throw .invalidNodeID(certificate.subject.nodeID?.rawValue ?? 0)
            }
            guard certificate.subject.fabricID != nil else { throw .invalidFabricID(role: .noc) }
            try checkCATs(certificate.subject.caseAuthenticatedTags)
        }
    }

    private static func checkExtensions(_ certificate: MatterCertificate, _ role: CertificateRole)
        throws(CredentialsError)
    {
        guard let constraints = certificate.basicConstraints else {
            throw .invalidBasicConstraints(role: role, reason: "basicConstraints is missing")
        }
        let mustBeCA = role != .noc
        guard constraints.isCA == mustBeCA else {
            throw .invalidBasicConstraints(role: role, reason: mustBeCA ? "CA must be TRUE" : "CA must be FALSE")
        }
        guard let usage = certificate.keyUsage else {
            throw .invalidKeyUsage(role: role, reason: "keyUsage is missing")
        }
        if mustBeCA {
            guard usage.contains(.keyCertSign) else {
                throw .invalidKeyUsage(role: role, reason: "keyCertSign missing")
            }
        } else {
            guard usage.contains(.digitalSignature) else {
                throw .invalidKeyUsage(role: role, reason: "digitalSignature missing")
            }
            guard !usage.contains(.keyCertSign) else {
                throw .invalidKeyUsage(role: role, reason: "a NOC must not have keyCertSign")
            }
            let purposes = certificate.extendedKeyUsage ?? []
            guard purposes.contains(.clientAuth), purposes.contains(.serverAuth) else {
                throw .invalidExtendedKeyUsage(role: role, reason: "clientAuth and serverAuth are both required")
            }
        }
        guard certificate.subjectKeyIdentifier != nil else { throw .missingKeyIdentifier(role: role, authority: false) }
        guard certificate.authorityKeyIdentifier != nil else {
            throw .missingKeyIdentifier(role: role, authority: true)
        }
    }

    private static func checkLink(
        _ certificate: MatterCertificate, _ role: CertificateRole, parent: MatterCertificate, parentKey: P256PublicKey,
        at time: CertificateValidationTime
    ) throws(CredentialsError) {
        guard certificate.issuer == parent.subject else { throw .issuerMismatch(role: role) }
        guard certificate.authorityKeyIdentifier == parent.subjectKeyIdentifier else {
            throw .authorityKeyIdentifierMismatch(role: role)
        }
        if case .unixSeconds(let now) = time {
            let matterNow = now - MatterEpoch.unixOffset
            // notBefore 0 stands for 9999-12-31 in DER; treat it as such.
            let notBefore =
                certificate.notBefore == 0
                ? X509Time.noWellDefinedExpiration - MatterEpoch.unixOffset
                : Int64(certificate.notBefore)
            guard matterNow >= notBefore else { throw .certificateNotYetValid(role: role) }
            if certificate.notAfter != 0, matterNow > Int64(certificate.notAfter) {
                throw .certificateExpired(role: role)
            }
        }
        guard try certificate.isSignatureValid(issuerPublicKey: parentKey) else { throw .invalidSignature(role: role) }
    }

    private static func publicKey(_ certificate: MatterCertificate, _ role: CertificateRole) throws(CredentialsError)
        -> P256PublicKey
    {
        do {
            return try P256PublicKey(x963Representation: certificate.publicKey)
        } catch {
            throw .invalidPublicKey(role: role, reason: "\(error)")
        }
    }
}
