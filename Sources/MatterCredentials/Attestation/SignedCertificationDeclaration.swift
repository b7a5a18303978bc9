package import MatterCrypto

/// A certification declaration in its CMS `SignedData` envelope, as the SDK builds and checks it (no
/// certificates, no signed attributes: the signature is ECDSA-SHA256 directly over the CD TLV).
///
/// ```
/// ContentInfo ::= SEQUENCE { OID signedData (1.2.840.113549.1.7.2),
///   [0] EXPLICIT SEQUENCE { INTEGER 3,
///     SET { SEQUENCE { OID sha256 } },
///     SEQUENCE { OID data (1.2.840.113549.1.7.1), [0] EXPLICIT OCTET STRING <CD TLV> },
///     SET { SEQUENCE { INTEGER 3, [0] IMPLICIT <20-byte signer subject key ID>, SEQUENCE { OID sha256 },
///                      SEQUENCE { OID ecdsa-with-SHA256 }, OCTET STRING <DER ECDSA signature> } } } }
/// ```
package struct SignedCertificationDeclaration: Hashable, Sendable {
    /// The CMS DER bytes.
    package let cmsEncoded: [UInt8]
    /// The CD TLV (the signed content).
    package let content: [UInt8]
    /// The signer's subject key identifier.
    package let signerKeyIdentifier: [UInt8]
    /// The DER ECDSA signature as carried in the envelope.
    let signatureDER: [UInt8]

    /// Parses a CMS envelope (structure only; see ``isSignatureValid(publicKey:)``).
    package init(cms: [UInt8]) throws(CredentialsError) {
        let what = "certification declaration CMS"
        func fail(_ reason: String) -> CredentialsError { .malformedDER(what: what, reason: reason) }
        let root = try DERParser.parseSingle(cms, what: what)
        guard root.tag == DERTag.sequence else { throw fail("not a SEQUENCE") }
        var contentInfo = root.contentsParser(what)
        guard try contentInfo.next(DERTag.objectIdentifier, "contentType").contents == OID.pkcs7SignedData else {
            throw fail("content type is not signedData")
        }
        let explicit = try contentInfo.next(DERTag.contextConstructed(0), "content")
        try contentInfo.expectEnd("ContentInfo")
        let signedData = try DERParser.parseSingle(explicit.contents, what: what)
        guard signedData.tag == DERTag.sequence else { throw fail("SignedData is not a SEQUENCE") }
        var fields = signedData.contentsParser(what)
        guard try fields.next(DERTag.integer, "version").unsignedInteger(what) == 3 else {
            throw fail("version is not 3")
        }
        try Self.expectDigestAlgorithms(fields.next(DERTag.set, "digestAlgorithms"), what: what)
        var encapsulated = try fields.next(DERTag.sequence, "encapContentInfo").contentsParser(what)
        guard try encapsulated.next(DERTag.objectIdentifier, "eContentType").contents == OID.pkcs7Data else {
            throw fail("eContentType is not data")
        }
        let eContent = try encapsulated.next(DERTag.contextConstructed(0), "eContent")
        try encapsulated.expectEnd("EncapsulatedContentInfo")
        let octets = try DERParser.parseSingle(eContent.contents, what: what)
        guard octets.tag == DERTag.octetString else { throw fail("eContent is not an OCTET STRING") }
        let signerInfos = try fields.next(DERTag.set, "signerInfos").children(what)
        try fields.expectEnd("SignedData")
        guard signerInfos.count == 1, let signerInfo = signerInfos.first, signerInfo.tag == DERTag.sequence else {
            throw fail("exactly one SignerInfo is expected")
        }
        var signer = signerInfo.contentsParser(what)
        guard try signer.next(DERTag.integer, "SignerInfo version").unsignedInteger(what) == 3 else {
            throw fail("SignerInfo version is not 3")
        }
        let keyIdentifier = try signer.next(DERTag.contextPrimitive(0), "subjectKeyIdentifier").contents
        var digest = try signer.next(DERTag.sequence, "digestAlgorithm").contentsParser(what)
        guard try digest.next(DERTag.objectIdentifier, "digestAlgorithm").contents == OID.sha256 else {
            throw fail("digest algorithm is not SHA-256")
        }
        var signatureAlgorithm = try signer.next(DERTag.sequence, "signatureAlgorithm").contentsParser(what)
        guard try signatureAlgorithm.next(DERTag.objectIdentifier, "signatureAlgorithm").contents == OID.ecdsaWithSHA256
        else { throw fail("signature algorithm is not ecdsa-with-SHA256") }
        let signature = try signer.next(DERTag.octetString, "signature").contents
        try signer.expectEnd("SignerInfo")
        cmsEncoded = cms
        content = octets.contents
        signerKeyIdentifier = keyIdentifier
        signatureDER = signature
    }

    private init(content: [UInt8], signerKeyIdentifier: [UInt8], signatureDER: [UInt8]) {
        let sha256 = DERWriter.sequence([DERWriter.oid(OID.sha256)])
        let signerInfo = DERWriter.sequence([
            DERWriter.integer(3),
            DERWriter.element(DERTag.contextPrimitive(0), signerKeyIdentifier),
            sha256,
            X509Builder.ecdsaWithSHA256,
            DERWriter.octetString(signatureDER),
        ])
        let signedData = DERWriter.sequence([
            DERWriter.integer(3),
            DERWriter.set([sha256]),
            DERWriter.sequence([DERWriter.oid(OID.pkcs7Data), DERWriter.explicit(0, DERWriter.octetString(content))]),
            DERWriter.set([signerInfo]),
        ])
        cmsEncoded = DERWriter.sequence([DERWriter.oid(OID.pkcs7SignedData), DERWriter.explicit(0, signedData)])
        self.content = content
        self.signerKeyIdentifier = signerKeyIdentifier
        self.signatureDER = signatureDER
    }

    /// Signs CD TLV bytes with `key`, naming the signer by `signerKeyIdentifier`.
    package static func sign(
        content: [UInt8], signerKeyIdentifier: [UInt8], key: P256PrivateKey
    ) throws(CredentialsError) -> SignedCertificationDeclaration {
        let signature = try withCrypto { () throws(CryptoError) in try key.signature(for: content).derRepresentation() }
        return SignedCertificationDeclaration(
            content: content, signerKeyIdentifier: signerKeyIdentifier, signatureDER: signature)
    }

    /// Signs a declaration with `key`; the signer key ID defaults to SHA-1 of its public key (the usual SKID).
    package static func sign(
        _ declaration: CertificationDeclaration, key: P256PrivateKey, signerKeyIdentifier: [UInt8]? = nil
    ) throws(CredentialsError) -> SignedCertificationDeclaration {
        let kid: [UInt8]
        if let signerKeyIdentifier {
            kid = signerKeyIdentifier
        } else {
            kid = try CertificateIdentifiers.keyIdentifier(key.publicKey.x963Representation)
        }
        return try sign(content: declaration.tlvEncoded, signerKeyIdentifier: kid, key: key)
    }

    /// Whether the envelope's signature verifies over the content with `publicKey`.
    package func isSignatureValid(publicKey: P256PublicKey) -> Bool {
        guard let signature = try? P256Signature(derRepresentation: signatureDER) else { return false }
        return publicKey.isValidSignature(signature, for: content)
    }

    /// The decoded content.
    package func declaration() throws(CredentialsError) -> CertificationDeclaration {
        try CertificationDeclaration(tlv: content)
    }

    /// Re-encodes parsed parts; used to check that parsing keeps every byte.
    var reencoded: [UInt8] {
        SignedCertificationDeclaration(
            content: content, signerKeyIdentifier: signerKeyIdentifier,
            signatureDER: signatureDER
        ).cmsEncoded
    }

    private static func expectDigestAlgorithms(_ set: DERElement, what: String) throws(CredentialsError) {
        let items = try set.children(what)
        guard items.count == 1, let item = items.first, item.tag == DERTag.sequence,
            try item.children(what).first?.contents == OID.sha256
        else { throw .malformedDER(what: what, reason: "digestAlgorithms must be { sha256 }") }
    }
}

/// A key trusted to sign certification declarations, named by its key identifier.
package struct CertificationDeclarationSigningKey: Sendable, Equatable {
    package let keyIdentifier: [UInt8]
    package let publicKey: P256PublicKey

    package init(keyIdentifier: [UInt8], publicKey: P256PublicKey) {
        self.keyIdentifier = keyIdentifier
        self.publicKey = publicKey
    }

    /// A key named by SHA-1 of its public point (how CD signing certificates derive their SKID).
    package init(publicKey: P256PublicKey) throws(CredentialsError) {
        self.init(
            keyIdentifier: try CertificateIdentifiers.keyIdentifier(publicKey.x963Representation),
            publicKey: publicKey)
    }

    /// The SDK's public test CD signing key ("Matter Test CD Signing Authority", key ID
    /// 62FA823359ACFAA9963E1CFA140ADDF504F37160), which SDK controllers trust by default for development devices.
    package static func sdkTest() throws(CredentialsError) -> CertificationDeclarationSigningKey {
        let point: [UInt8] = [
            0x04, 0x3C, 0x39, 0x89, 0x22, 0x45, 0x2B, 0x55, 0xCA, 0xF3, 0x89, 0xC2, 0x5B, 0xD1, 0xBC, 0xA4, 0x65,
            0x69, 0x52, 0xCC, 0xB9, 0x0E, 0x88, 0x69, 0x24, 0x9A, 0xD8, 0x47, 0x46, 0x53, 0x01, 0x4C, 0xBF, 0x95,
            0xD6, 0x87, 0x96, 0x5E, 0x03, 0x6B, 0x52, 0x1C, 0x51, 0x03, 0x7E, 0x6B, 0x8C, 0xED, 0xEF, 0xCA, 0x1E,
            0xB4, 0x40, 0x46, 0x69, 0x4F, 0xA0, 0x88, 0x82, 0xEE, 0xD6, 0x51, 0x9D, 0xEC, 0xBA,
        ]
        let keyIdentifier: [UInt8] = [
            0x62, 0xFA, 0x82, 0x33, 0x59, 0xAC, 0xFA, 0xA9, 0x96, 0x3E, 0x1C, 0xFA, 0x14, 0x0A, 0xDD, 0xF5, 0x04,
            0xF3, 0x71, 0x60,
        ]
        let key = try withCrypto { () throws(CryptoError) in try P256PublicKey(x963Representation: point) }
        return CertificationDeclarationSigningKey(keyIdentifier: keyIdentifier, publicKey: key)
    }
}
