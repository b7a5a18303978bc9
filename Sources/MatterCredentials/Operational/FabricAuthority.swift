package import MatterCore
package import MatterCrypto

/// The validity period of certificates a ``FabricAuthority`` issues, in Matter-epoch seconds.
package struct MatterCertificateValidity: Hashable, Sendable {
    package var notBefore: UInt32
    /// 0 means no expiry.
    package var notAfter: UInt32

    package init(notBefore: UInt32, notAfter: UInt32) {
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    /// 2021-01-01T00:00:00Z with no expiry: valid for any node with a plausible clock (nodes that check validity
    /// against real time need a notBefore in the past).
    package static let `default` = MatterCertificateValidity(
        notBefore: MatterEpoch.seconds(year: 2021, month: 1, day: 1), notAfter: 0)
}

/// A fabric's certificate authority: a root (RCAC), optionally an intermediate (ICAC), and NOC issuance.
///
/// Certificates are built in the SDK's profile (extensions basicConstraints, keyUsage, [extKeyUsage],
/// subjectKeyIdentifier, authorityKeyIdentifier in that order; key IDs are SHA-1 of the public key) and signed
/// over their own DER expansion, so any Matter node reconstructs exactly what was signed.
package struct FabricAuthority: Sendable {
    package let fabricID: FabricID
    package let rootKey: P256PrivateKey
    package let rootCertificate: MatterCertificate
    package let intermediateKey: P256PrivateKey?
    package let intermediateCertificate: MatterCertificate?

    /// Restores an authority from stored keys and certificates, checking that they belong together.
    package init(
        fabricID: FabricID, rootKey: P256PrivateKey, rootCertificate: MatterCertificate,
        intermediateKey: P256PrivateKey? = nil, intermediateCertificate: MatterCertificate? = nil
    ) throws(CredentialsError) {
        guard rootKey.publicKey.x963Representation == rootCertificate.publicKey,
            intermediateKey?.publicKey.x963Representation == intermediateCertificate?.publicKey
        else { throw .publicKeyMismatch }
        guard (intermediateKey == nil) == (intermediateCertificate == nil) else {
            throw .invalidArgument("an intermediate key needs its certificate and the other way round")
        }
        try OperationalCertificateValidator.validateRoot(rootCertificate, at: .unavailable)
        self.fabricID = fabricID
        self.rootKey = rootKey
        self.rootCertificate = rootCertificate
        self.intermediateKey = intermediateKey
        self.intermediateCertificate = intermediateCertificate
    }

    /// Creates a new authority with a fresh self-signed RCAC (and an ICAC when `icacID` is given).
    ///
    /// - Parameters:
    ///   - rcacID: the RCAC's matter-rcac-id.
    ///   - includeFabricIDInCAs: also put matter-fabric-id in the RCAC/ICAC subjects (allowed, optional).
    package static func create(
        fabricID: FabricID, rcacID: UInt64, icacID: UInt64? = nil, rootKey: P256PrivateKey? = nil,
        intermediateKey: P256PrivateKey? = nil, validity: MatterCertificateValidity = .default,
        includeFabricIDInCAs: Bool = false
    ) throws(CredentialsError) -> FabricAuthority {
        guard fabricID.rawValue != 0 else { throw .invalidFabricID(role: .noc) }
        let rootKey = try orNewKey(rootKey)
        var rootSubject = MatterDistinguishedName([.rcacID(rcacID)])
        if includeFabricIDInCAs { rootSubject.attributes.append(.fabricID(fabricID.rawValue)) }
        let root = try makeCertificate(
            subject: rootSubject, subjectKey: rootKey.publicKey, issuer: rootSubject, issuerKey: rootKey,
            validity: validity, isCA: true, purposes: nil)
        var intermediate: (key: P256PrivateKey, certificate: MatterCertificate)?
        if let icacID {
            let key = try orNewKey(intermediateKey)
            var subject = MatterDistinguishedName([.icacID(icacID)])
            if includeFabricIDInCAs { subject.attributes.append(.fabricID(fabricID.rawValue)) }
            let certificate = try makeCertificate(
                subject: subject, subjectKey: key.publicKey, issuer: rootSubject, issuerKey: rootKey,
                validity: validity, isCA: true, purposes: nil)
            intermediate = (key, certificate)
        }
        return try FabricAuthority(
            fabricID: fabricID, rootKey: rootKey, rootCertificate: root, intermediateKey: intermediate?.key,
            intermediateCertificate: intermediate?.certificate)
    }

    /// Issues a NOC for `publicKey` (the key of a verified CSR) with the given node ID and CATs.
    package func issueNOC(
        publicKey: P256PublicKey, nodeID: NodeID, caseAuthenticatedTags: [CASEAuthenticatedTag] = [],
        validity: MatterCertificateValidity = .default
    ) throws(CredentialsError) -> MatterCertificate {
        guard nodeID.isOperational else { throw .invalidNodeID(nodeID.rawValue) }
        try OperationalCertificateValidator.checkCATs(caseAuthenticatedTags)
        var subject = MatterDistinguishedName([.nodeID(nodeID.rawValue), .fabricID(fabricID.rawValue)])
        subject.attributes += caseAuthenticatedTags.map { .caseAuthenticatedTag($0) }
        let issuerCertificate = intermediateCertificate ?? rootCertificate
        let issuerKey = intermediateKey ?? rootKey
        return try Self.makeCertificate(
            subject: subject, subjectKey: publicKey, issuer: issuerCertificate.subject, issuerKey: issuerKey,
            validity: validity, isCA: false, purposes: [.clientAuth, .serverAuth])
    }

    /// Verifies a PKCS#10 CSR and issues a NOC for its key.
    package func issueNOC(
        csr: [UInt8], nodeID: NodeID, caseAuthenticatedTags: [CASEAuthenticatedTag] = [],
        validity: MatterCertificateValidity = .default
    ) throws(CredentialsError) -> MatterCertificate {
        let request = try CertificateSigningRequest(der: csr)
        return try issueNOC(
            publicKey: request.publicKey, nodeID: nodeID, caseAuthenticatedTags: caseAuthenticatedTags,
            validity: validity)
    }

    private static func orNewKey(_ key: P256PrivateKey?) throws(CredentialsError) -> P256PrivateKey {
        if let key { return key }
        return try withCrypto { () throws(CryptoError) in try P256PrivateKey() }
    }

    static func makeCertificate(
        subject: MatterDistinguishedName, subjectKey: P256PublicKey, issuer: MatterDistinguishedName,
        issuerKey: P256PrivateKey, validity: MatterCertificateValidity, isCA: Bool, purposes: [KeyPurpose]?
    ) throws(CredentialsError) -> MatterCertificate {
        var extensions: [MatterCertificateExtension] = [
            .basicConstraints(isCA: isCA, pathLengthConstraint: nil),
            .keyUsage(isCA ? [.keyCertSign, .cRLSign] : .digitalSignature),
        ]
        if let purposes { extensions.append(.extendedKeyUsage(purposes)) }
        extensions.append(
            .subjectKeyIdentifier(try CertificateIdentifiers.keyIdentifier(subjectKey.x963Representation)))
        extensions.append(
            .authorityKeyIdentifier(
                try CertificateIdentifiers.keyIdentifier(issuerKey.publicKey.x963Representation)))
        let unsigned = MatterCertificate(
            serialNumber: try CertificateIdentifiers.randomSerialNumber(), issuer: issuer,
            notBefore: validity.notBefore, notAfter: validity.notAfter, subject: subject,
            publicKey: subjectKey.x963Representation, extensions: extensions)
        return try unsigned.signed(with: issuerKey)
    }
}
