package import MatterCrypto

/// A PKCS#10 certificate signing request with a P-256 key, as a Matter device sends it in its NOCSR elements.
///
/// ```
/// CertificationRequest ::= SEQUENCE {
///   certificationRequestInfo SEQUENCE { INTEGER 0, subject Name, SubjectPublicKeyInfo, [0] attributes },
///   signatureAlgorithm SEQUENCE { ecdsa-with-SHA256 },
///   signature BIT STRING (DER ECDSA-Sig-Value over certificationRequestInfo) }
/// ```
/// The commissioner uses only the public key; parsing checks the structure and the self-signature.
package struct CertificateSigningRequest: Sendable {
    /// Largest CSR the SDK's buffers hold when a device builds one.
    package static let maximumByteCount = 255

    /// The DER encoding.
    package let derEncoded: [UInt8]
    /// The requested public key.
    package let publicKey: P256PublicKey

    /// Parses a DER CSR and verifies its self-signature. Throws ``CredentialsError/csrSignatureInvalid`` when the
    /// signature does not verify, ``CredentialsError/malformedDER(what:reason:)`` for broken DER or
    /// ``CredentialsError/notRepresentable(_:)`` for another algorithm or curve.
    package init(der: [UInt8]) throws(CredentialsError) {
        let what = "CSR"
        let root = try DERParser.parseSingle(der, what: what)
        guard root.tag == DERTag.sequence else { throw .malformedDER(what: what, reason: "not a SEQUENCE") }
        var outer = root.contentsParser(what)
        let info = try outer.next(DERTag.sequence, "certificationRequestInfo")
        var algorithm = try outer.next(DERTag.sequence, "signatureAlgorithm").contentsParser(what)
        let signatureDER = try outer.next(DERTag.bitString, "signature").bitStringBytes(what)
        try outer.expectEnd("CertificationRequest")
        guard try algorithm.next(DERTag.objectIdentifier, "algorithm").contents == OID.ecdsaWithSHA256 else {
            throw .notRepresentable("the CSR is not signed with ecdsa-with-SHA256")
        }
        try algorithm.expectEnd("signatureAlgorithm")

        var fields = info.contentsParser(what)
        guard try fields.next(DERTag.integer, "version").unsignedInteger(what) == 0 else {
            throw .malformedDER(what: what, reason: "version must be 0 (v1)")
        }
        _ = try fields.next(DERTag.sequence, "subject")
        var spki = try fields.next(DERTag.sequence, "subjectPKInfo").contentsParser(what)
        var keyAlgorithm = try spki.next(DERTag.sequence, "algorithm").contentsParser(what)
        guard try keyAlgorithm.next(DERTag.objectIdentifier, "algorithm").contents == OID.ecPublicKey,
            try keyAlgorithm.next(DERTag.objectIdentifier, "namedCurve").contents == OID.prime256v1
        else { throw .notRepresentable("the CSR key is not an EC key on prime256v1") }
        try keyAlgorithm.expectEnd("algorithm")
        let point = try spki.next(DERTag.bitString, "subjectPublicKey").bitStringBytes(what)
        try spki.expectEnd("subjectPKInfo")
        _ = try fields.optional(DERTag.contextConstructed(0))
        try fields.expectEnd("certificationRequestInfo")

        let key: P256PublicKey
        let signature: P256Signature
        do {
            key = try P256PublicKey(x963Representation: point)
            signature = try P256Signature(derRepresentation: signatureDER)
        } catch {
            throw .malformedDER(what: what, reason: "\(error)")
        }
        guard key.isValidSignature(signature, for: info.encoded) else { throw .csrSignatureInvalid }
        derEncoded = der
        publicKey = key
    }

    /// Builds and signs a CSR for `key` with subject `O=<organization>` (SDK devices use `O=CSR`) and an empty
    /// attribute set.
    package static func create(key: P256PrivateKey, organization: String = "CSR") throws(CredentialsError)
        -> CertificateSigningRequest
    {
        let subject = X509Builder.name([(OID.organizationName, DERTag.utf8String, Array(organization.utf8))])
        let info = DERWriter.sequence([
            DERWriter.integer(0), subject, X509Builder.subjectPublicKeyInfo(key.publicKey.x963Representation),
            DERWriter.element(DERTag.contextConstructed(0), []),
        ])
        let signatureDER = try withCrypto { () throws(CryptoError) in
            try key.signature(for: info).derRepresentation()
        }
        let der = DERWriter.sequence([info, X509Builder.ecdsaWithSHA256, DERWriter.bitString(signatureDER)])
        return try CertificateSigningRequest(der: der)
    }
}
