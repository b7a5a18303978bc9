/// A parsed X.509 v1–v3 certificate restricted to what Matter uses: ECDSA signatures, EC public keys, names as
/// sequences of single- or multi-valued RDNs, extensions as raw (OID, critical, value) triples.
///
/// Parsing is strict DER; semantic checks (algorithms, profiles) are left to the callers.
struct X509Certificate: Sendable {
    struct AttributeValue: Sendable, Equatable {
        let oid: [UInt8]
        let stringTag: UInt8
        let value: [UInt8]
    }

    struct Extension: Sendable {
        let oid: [UInt8]
        let critical: Bool
        let value: [UInt8]
        let encoded: [UInt8]
    }

    let encoded: [UInt8]
    /// The TBSCertificate element's exact bytes (what the signature covers).
    let tbs: [UInt8]
    /// 1, 2 or 3.
    let version: Int
    /// INTEGER contents, verbatim.
    let serialNumber: [UInt8]
    let tbsSignatureAlgorithm: [UInt8]
    let tbsSignatureAlgorithmHasParameters: Bool
    let issuer: [[AttributeValue]]
    let issuerEncoded: [UInt8]
    let notBefore: Int64
    let notAfter: Int64
    let notBeforeTag: UInt8
    let notAfterTag: UInt8
    let subject: [[AttributeValue]]
    let subjectEncoded: [UInt8]
    let publicKeyAlgorithm: [UInt8]
    /// The named-curve OID when the parameters are one.
    let publicKeyCurve: [UInt8]?
    let publicKey: [UInt8]
    let hasUniqueIdentifiers: Bool
    let extensions: [Extension]
    let signatureAlgorithm: [UInt8]
    /// The BIT STRING contents (a DER ECDSA-Sig-Value for ECDSA).
    let signature: [UInt8]

    init(der: [UInt8], what: String = "certificate") throws(CredentialsError) {
        encoded = der
        let root = try DERParser.parseSingle(der, what: what)
        guard root.tag == DERTag.sequence else { throw .malformedDER(what: what, reason: "not a SEQUENCE") }
        var outer = root.contentsParser(what)
        let tbsElement = try outer.next(DERTag.sequence, "tbsCertificate")
        let algorithm = try outer.next(DERTag.sequence, "signatureAlgorithm")
        let signatureBits = try outer.next(DERTag.bitString, "signatureValue")
        try outer.expectEnd("Certificate")
        tbs = tbsElement.encoded
        (signatureAlgorithm, _) = try Self.algorithmIdentifier(algorithm, what: what)
        signature = try signatureBits.bitStringBytes(what)

        var fields = tbsElement.contentsParser(what)
        if let versionWrapper = try fields.optional(DERTag.contextConstructed(0)) {
            let value = try DERParser.parseSingle(versionWrapper.contents, what: what).unsignedInteger(what)
            guard value <= 2 else { throw .malformedDER(what: what, reason: "unknown version \(value + 1)") }
            version = Int(value) + 1
        } else {
            version = 1
        }
        serialNumber = try fields.next(DERTag.integer, "serialNumber").contents
        guard !serialNumber.isEmpty else { throw .malformedDER(what: what, reason: "empty serial number") }
        (tbsSignatureAlgorithm, tbsSignatureAlgorithmHasParameters) = try Self.algorithmIdentifier(
            fields.next(DERTag.sequence, "signature"), what: what)
        let issuerElement = try fields.next(DERTag.sequence, "issuer")
        issuerEncoded = issuerElement.encoded
        issuer = try Self.name(issuerElement, what: what)
        var validity = try fields.next(DERTag.sequence, "validity").contentsParser(what)
        let before = try validity.next()
        let after = try validity.next()
        try validity.expectEnd("validity")
        notBefore = try X509Time.decode(before, what: what)
        notAfter = try X509Time.decode(after, what: what)
        notBeforeTag = before.tag
        notAfterTag = after.tag
        let subjectElement = try fields.next(DERTag.sequence, "subject")
        subjectEncoded = subjectElement.encoded
        subject = try Self.name(subjectElement, what: what)
        var spki = try fields.next(DERTag.sequence, "subjectPublicKeyInfo").contentsParser(what)
        var keyAlgorithm = try spki.next(DERTag.sequence, "algorithm").contentsParser(what)
        publicKeyAlgorithm = try keyAlgorithm.next(DERTag.objectIdentifier, "algorithm").contents
        if keyAlgorithm.isAtEnd {
            publicKeyCurve = nil
        } else {
            let parameters = try keyAlgorithm.next()
            publicKeyCurve = parameters.tag == DERTag.objectIdentifier ? parameters.contents : nil
            try keyAlgorithm.expectEnd("algorithm")
        }
        publicKey = try spki.next(DERTag.bitString, "subjectPublicKey").bitStringBytes(what)
        try spki.expectEnd("subjectPublicKeyInfo")
        var uniqueIDs = 0
        for tag in [
            DERTag.contextPrimitive(1), DERTag.contextConstructed(1), DERTag.contextPrimitive(2),
            DERTag.contextConstructed(2),
        ] where try fields.optional(tag) != nil {
            uniqueIDs += 1
        }
        hasUniqueIdentifiers = uniqueIDs > 0
        var parsedExtensions: [Extension] = []
        if let wrapper = try fields.optional(DERTag.contextConstructed(3)) {
            let list = try DERParser.parseSingle(wrapper.contents, what: what)
            guard list.tag == DERTag.sequence else {
                throw .malformedDER(what: what, reason: "extensions not a SEQUENCE")
            }
            for item in try list.children(what) {
                guard item.tag == DERTag.sequence else {
                    throw .malformedDER(what: what, reason: "extension not a SEQUENCE")
                }
                var ext = item.contentsParser(what)
                let oid = try ext.next(DERTag.objectIdentifier, "extnID").contents
                var critical = false
                if let flag = try ext.optional(DERTag.boolean) {
                    guard flag.contents == [0xFF] else {
                        throw .malformedDER(what: what, reason: "critical flag must be an explicit TRUE in DER")
                    }
                    critical = true
                }
                let value = try ext.next(DERTag.octetString, "extnValue").contents
                try ext.expectEnd("Extension")
                parsedExtensions.append(Extension(oid: oid, critical: critical, value: value, encoded: item.encoded))
            }
        }
        extensions = parsedExtensions
        try fields.expectEnd("TBSCertificate")
    }

    func extensionValue(_ oid: [UInt8]) -> Extension? { extensions.first { $0.oid == oid } }

    /// The first subject attribute with `oid` (searching every RDN).
    func subjectAttribute(_ oid: [UInt8]) -> AttributeValue? {
        subject.lazy.flatMap { $0 }.first { $0.oid == oid }
    }

    private static func algorithmIdentifier(_ element: DERElement, what: String) throws(CredentialsError)
        -> ([UInt8], Bool)
    {
        var parser = element.contentsParser(what)
        let oid = try parser.next(DERTag.objectIdentifier, "algorithm").contents
        let hasParameters = !parser.isAtEnd
        if hasParameters { _ = try parser.next() }
        try parser.expectEnd("AlgorithmIdentifier")
        return (oid, hasParameters)
    }

    private static func name(_ element: DERElement, what: String) throws(CredentialsError) -> [[AttributeValue]] {
        var rdns: [[AttributeValue]] = []
        for rdn in try element.children(what) {
            guard rdn.tag == DERTag.set else { throw .malformedDER(what: what, reason: "RDN is not a SET") }
            var values: [AttributeValue] = []
            for pair in try rdn.children(what) {
                guard pair.tag == DERTag.sequence else {
                    throw .malformedDER(what: what, reason: "AttributeTypeAndValue is not a SEQUENCE")
                }
                var parser = pair.contentsParser(what)
                let oid = try parser.next(DERTag.objectIdentifier, "attribute type").contents
                let value = try parser.next()
                try parser.expectEnd("AttributeTypeAndValue")
                values.append(AttributeValue(oid: oid, stringTag: value.tag, value: value.contents))
            }
            guard !values.isEmpty else { throw .malformedDER(what: what, reason: "empty RDN") }
            rdns.append(values)
        }
        return rdns
    }
}

/// Builds X.509 structures from parts (used for Matter operational and attestation certificates).
enum X509Builder {
    /// `SEQUENCE { [0] v3, serial, sigAlg, issuer, validity, subject, spki, [3] extensions }`.
    static func tbsCertificate(
        serialNumber: [UInt8], issuer: [UInt8], notBefore: [UInt8], notAfter: [UInt8], subject: [UInt8],
        publicKey: [UInt8], extensions: [[UInt8]]
    ) -> [UInt8] {
        var parts: [[UInt8]] = [
            DERWriter.explicit(0, DERWriter.integer(2)),
            DERWriter.element(DERTag.integer, serialNumber),
            ecdsaWithSHA256,
            issuer,
            DERWriter.sequence([notBefore, notAfter]),
            subject,
            subjectPublicKeyInfo(publicKey),
        ]
        if !extensions.isEmpty { parts.append(DERWriter.explicit(3, DERWriter.sequence(extensions))) }
        return DERWriter.sequence(parts)
    }

    /// `SEQUENCE { tbs, sigAlg, BIT STRING signature }`.
    static func certificate(tbs: [UInt8], signatureDER: [UInt8]) -> [UInt8] {
        DERWriter.sequence([tbs, ecdsaWithSHA256, DERWriter.bitString(signatureDER)])
    }

    static let ecdsaWithSHA256 = DERWriter.sequence([DERWriter.oid(OID.ecdsaWithSHA256)])

    static func subjectPublicKeyInfo(_ point: [UInt8]) -> [UInt8] {
        DERWriter.sequence([
            DERWriter.sequence([DERWriter.oid(OID.ecPublicKey), DERWriter.oid(OID.prime256v1)]),
            DERWriter.bitString(point),
        ])
    }

    /// A Name with one attribute per RDN.
    static func name(_ attributes: [(oid: [UInt8], stringTag: UInt8, value: [UInt8])]) -> [UInt8] {
        DERWriter.sequence(
            attributes.map { attribute in
                DERWriter.set([
                    DERWriter.sequence([
                        DERWriter.oid(attribute.oid),
                        DERWriter.element(attribute.stringTag, attribute.value),
                    ])
                ])
            })
    }

    /// `SEQUENCE { OID, [BOOLEAN TRUE], OCTET STRING value }`.
    static func extensionDER(_ oid: [UInt8], critical: Bool, value: [UInt8]) -> [UInt8] {
        var parts = [DERWriter.oid(oid)]
        if critical { parts.append(DERWriter.boolean(true)) }
        parts.append(DERWriter.octetString(value))
        return DERWriter.sequence(parts)
    }

    static func basicConstraints(isCA: Bool, pathLength: UInt8?) -> [UInt8] {
        var parts: [[UInt8]] = []
        if isCA { parts.append(DERWriter.boolean(true)) }
        if let pathLength { parts.append(DERWriter.integer(UInt64(pathLength))) }
        return extensionDER(OID.basicConstraints, critical: true, value: DERWriter.sequence(parts))
    }

    static func keyUsage(_ usage: KeyUsage) -> [UInt8] {
        extensionDER(OID.keyUsage, critical: true, value: DERWriter.element(DERTag.bitString, usage.derBitString))
    }

    static func subjectKeyIdentifier(_ id: [UInt8]) -> [UInt8] {
        extensionDER(OID.subjectKeyIdentifier, critical: false, value: DERWriter.octetString(id))
    }

    static func authorityKeyIdentifier(_ id: [UInt8]) -> [UInt8] {
        extensionDER(
            OID.authorityKeyIdentifier, critical: false,
            value: DERWriter.sequence([DERWriter.element(DERTag.contextPrimitive(0), id)]))
    }
}
