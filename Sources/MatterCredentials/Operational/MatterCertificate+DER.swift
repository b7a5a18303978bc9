import MatterCrypto

extension MatterCertificate {
    /// The DER `TBSCertificate` this TLV expands to: the bytes the signature covers.
    ///
    /// ```
    /// SEQUENCE { [0] EXPLICIT INTEGER 2, INTEGER serial, SEQUENCE { ecdsa-with-SHA256 }, issuer Name,
    ///            SEQUENCE { notBefore, notAfter }, subject Name,
    ///            SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING 00‖point },
    ///            [3] EXPLICIT SEQUENCE OF Extension (TLV order) }
    /// ```
    /// Times before 2050 are UTCTime, later ones GeneralizedTime; 0 is GeneralizedTime `99991231235959Z`.
    package var tbsDER: [UInt8] {
        get throws(CredentialsError) {
            guard (1...20).contains(serialNumber.count) else {
                throw .invalidArgument("serial number must be 1…20 bytes, got \(serialNumber.count)")
            }
            guard publicKey.count == 65 else {
                throw .invalidArgument("public key must be 65 bytes, got \(publicKey.count)")
            }
            var extensionsDER: [[UInt8]] = []
            for ext in extensions { extensionsDER.append(try Self.der(ext)) }
            return X509Builder.tbsCertificate(
                serialNumber: serialNumber, issuer: issuer.derEncoded, notBefore: try Self.derTime(notBefore),
                notAfter: try Self.derTime(notAfter), subject: subject.derEncoded, publicKey: publicKey,
                extensions: extensionsDER)
        }
    }

    /// The X.509 DER certificate: TBS, ecdsa-with-SHA256, and the signature as a DER `ECDSA-Sig-Value`.
    package var derEncoded: [UInt8] {
        get throws(CredentialsError) {
            let tbs = try tbsDER
            let signatureDER = try withCrypto { () throws(CryptoError) in
                try P256Signature(rawRepresentation: signature).derRepresentation()
            }
            return X509Builder.certificate(tbs: tbs, signatureDER: signatureDER)
        }
    }

    /// Converts an X.509 DER certificate to its Matter form.
    ///
    /// Only certificates whose DER this type reproduces byte for byte are accepted: v3, ecdsa-with-SHA256, P-256,
    /// one attribute per RDN of the types in ``MatterDistinguishedName`` (Matter attributes as UTF8String of 16
    /// — 8 for CATs — upper-case hex digits), no unique IDs, and the critical flags Matter implies. Anything else
    /// throws ``CredentialsError/notRepresentable(_:)``.
    package init(der: [UInt8]) throws(CredentialsError) {
        guard der.count <= Self.maximumDERByteCount else {
            throw .certificateTooLarge(size: der.count, limit: Self.maximumDERByteCount)
        }
        let x509 = try X509Certificate(der: der)
        guard x509.version == 3 else { throw .notRepresentable("version \(x509.version), only v3 is") }
        guard x509.tbsSignatureAlgorithm == OID.ecdsaWithSHA256, x509.signatureAlgorithm == OID.ecdsaWithSHA256,
            !x509.tbsSignatureAlgorithmHasParameters
        else { throw .notRepresentable("the signature algorithm is not ecdsa-with-SHA256") }
        guard x509.publicKeyAlgorithm == OID.ecPublicKey, x509.publicKeyCurve == OID.prime256v1 else {
            throw .notRepresentable("the public key is not an EC key on prime256v1")
        }
        guard x509.publicKey.count == 65, x509.publicKey.first == 0x04 else {
            throw .notRepresentable("the public key is not an uncompressed point")
        }
        guard !x509.hasUniqueIdentifiers else { throw .notRepresentable("issuerUniqueID/subjectUniqueID present") }
        guard (1...20).contains(x509.serialNumber.count) else {
            throw .notRepresentable("serial number longer than 20 bytes")
        }
        let raw = try withCrypto { () throws(CryptoError) in
            try P256Signature(derRepresentation: x509.signature).rawRepresentation
        }
        self.init(
            serialNumber: x509.serialNumber,
            issuer: try MatterDistinguishedName(x509: x509.issuer, what: "issuer"),
            notBefore: try Self.matterTime(x509.notBefore, "notBefore"),
            notAfter: try Self.matterTime(x509.notAfter, "notAfter"),
            subject: try MatterDistinguishedName(x509: x509.subject, what: "subject"),
            publicKey: x509.publicKey,
            extensions: try x509.extensions.map { (ext) throws(CredentialsError) in try Self.matterExtension(ext) },
            signature: raw)
        guard try derEncoded == der else {
            throw .notRepresentable(
                "its DER is not the canonical expansion of the Matter form (string types, "
                    + "time encodings, critical flags or integer forms differ)")
        }
        let tlvSize = tlvEncoded.count
        guard tlvSize <= Self.maximumTLVByteCount else {
            throw .certificateTooLarge(size: tlvSize, limit: Self.maximumTLVByteCount)
        }
    }

    // MARK: Helpers

    static func derTime(_ matterSeconds: UInt32) throws(CredentialsError) -> [UInt8] {
        try X509Time.encode(
            matterSeconds == 0
                ? X509Time.noWellDefinedExpiration
                : Int64(matterSeconds) + MatterEpoch.unixOffset)
    }

    private static func matterTime(_ unix: Int64, _ name: String) throws(CredentialsError) -> UInt32 {
        if unix == X509Time.noWellDefinedExpiration { return 0 }
        guard let value = UInt32(exactly: unix - MatterEpoch.unixOffset), value != 0 else {
            throw .notRepresentable("\(name) is outside the Matter epoch range (2000-01-01T00:00:01Z … 2136)")
        }
        return value
    }

    private static func der(_ ext: MatterCertificateExtension) throws(CredentialsError) -> [UInt8] {
        switch ext {
        case .basicConstraints(let isCA, let pathLength):
            return X509Builder.basicConstraints(isCA: isCA, pathLength: pathLength)
        case .keyUsage(let usage): return X509Builder.keyUsage(usage)
        case .extendedKeyUsage(let purposes):
            return X509Builder.extensionDER(
                OID.extendedKeyUsage, critical: true,
                value: DERWriter.sequence(purposes.map { DERWriter.oid($0.oid) }))
        case .subjectKeyIdentifier(let id): return X509Builder.subjectKeyIdentifier(id)
        case .authorityKeyIdentifier(let id): return X509Builder.authorityKeyIdentifier(id)
        case .future(let der):
            guard let parsed = try? DERParser.parseSingle(der, what: "future extension"), parsed.tag == DERTag.sequence
            else { throw .invalidArgument("a future extension must be one DER Extension SEQUENCE") }
            return der
        }
    }

    private static func matterExtension(_ ext: X509Certificate.Extension) throws(CredentialsError)
        -> MatterCertificateExtension
    {
        let what = "extension"
        switch ext.oid {
        case OID.basicConstraints:
            var parser = try DERParser.parseSingle(ext.value, what: what).contentsParser(what)
            let isCA = try parser.optional(DERTag.boolean).map { $0.contents == [0xFF] } ?? false
            var pathLength: UInt8?
            if let element = try parser.optional(DERTag.integer) {
                guard let value = UInt8(exactly: try element.unsignedInteger(what)) else {
                    throw .notRepresentable("basicConstraints pathLenConstraint above 255")
                }
                pathLength = value
            }
            try parser.expectEnd("basicConstraints")
            return .basicConstraints(isCA: isCA, pathLengthConstraint: pathLength)
        case OID.keyUsage:
            let bits = try DERParser.parseSingle(ext.value, what: what)
            guard bits.tag == DERTag.bitString, let usage = KeyUsage(derBitString: bits.contents) else {
                throw .notRepresentable("keyUsage is not a BIT STRING of known usages")
            }
            return .keyUsage(usage)
        case OID.extendedKeyUsage:
            let list = try DERParser.parseSingle(ext.value, what: what)
            guard list.tag == DERTag.sequence else { throw .notRepresentable("extKeyUsage is not a SEQUENCE") }
            var purposes: [KeyPurpose] = []
            for item in try list.children(what) {
                guard item.tag == DERTag.objectIdentifier, let purpose = KeyPurpose(oid: item.contents) else {
                    throw .notRepresentable("extKeyUsage holds a purpose Matter cannot encode")
                }
                purposes.append(purpose)
            }
            return .extendedKeyUsage(purposes)
        case OID.subjectKeyIdentifier:
            let id = try DERParser.parseSingle(ext.value, what: what)
            guard id.tag == DERTag.octetString, id.contents.count == 20 else {
                throw .notRepresentable("subjectKeyIdentifier is not a 20-byte OCTET STRING")
            }
            return .subjectKeyIdentifier(id.contents)
        case OID.authorityKeyIdentifier:
            var parser = try DERParser.parseSingle(ext.value, what: what).contentsParser(what)
            let id = try parser.next(DERTag.contextPrimitive(0), "keyIdentifier")
            guard parser.isAtEnd, id.contents.count == 20 else {
                throw .notRepresentable("authorityKeyIdentifier must hold only a 20-byte keyIdentifier")
            }
            return .authorityKeyIdentifier(id.contents)
        default:
            return .future(ext.encoded)
        }
    }
}

// MARK: - DN DER

extension MatterDistinguishedName {
    /// The DER `Name`: one RDN per attribute, in order.
    var derEncoded: [UInt8] {
        X509Builder.name(
            attributes.map { attribute in
                switch attribute {
                case .nodeID(let v): (OID.matterOperational(1), DERTag.utf8String, Array(hex(v, 16).utf8))
                case .firmwareSigningID(let v): (OID.matterOperational(2), DERTag.utf8String, Array(hex(v, 16).utf8))
                case .icacID(let v): (OID.matterOperational(3), DERTag.utf8String, Array(hex(v, 16).utf8))
                case .rcacID(let v): (OID.matterOperational(4), DERTag.utf8String, Array(hex(v, 16).utf8))
                case .fabricID(let v): (OID.matterOperational(5), DERTag.utf8String, Array(hex(v, 16).utf8))
                case .caseAuthenticatedTag(let cat):
                    (OID.matterOperational(6), DERTag.utf8String, Array(hex(UInt64(cat.rawValue), 8).utf8))
                case .text(let type, let text, let printable):
                    (
                        type.oid,
                        type == .domainComponent
                            ? DERTag.ia5String : printable ? DERTag.printableString : DERTag.utf8String,
                        Array(text.utf8)
                    )
                }
            })
    }

    init(x509 rdns: [[X509Certificate.AttributeValue]], what: String) throws(CredentialsError) {
        var attributes: [Attribute] = []
        for rdn in rdns {
            guard rdn.count == 1, let value = rdn.first else {
                throw .notRepresentable("\(what) has a multi-valued RDN")
            }
            attributes.append(try Self.attribute(value, what: what))
        }
        self.init(attributes)
    }

    private static func attribute(_ value: X509Certificate.AttributeValue, what: String) throws(CredentialsError)
        -> Attribute
    {
        if value.oid.count == 10, value.oid.prefix(9).elementsEqual(OID.matterOperational(0).prefix(9)),
            let number = value.oid.last, (1...6).contains(number)
        {
            let width = number == 6 ? 8 : 16
            guard value.stringTag == DERTag.utf8String, value.value.count == width,
                value.value.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x46) }),
                let parsed = UInt64(String(decoding: value.value, as: UTF8.self), radix: 16)
            else {
                throw .notRepresentable(
                    "\(what) Matter attribute 1.3.6.1.4.1.37244.1.\(number) is not a UTF8String of "
                        + "\(width) upper-case hex digits")
            }
            switch number {
            case 1: return .nodeID(parsed)
            case 2: return .firmwareSigningID(parsed)
            case 3: return .icacID(parsed)
            case 4: return .rcacID(parsed)
            case 5: return .fabricID(parsed)
            default: return .caseAuthenticatedTag(CASEAuthenticatedTag(rawValue: UInt32(truncatingIfNeeded: parsed)))
            }
        }
        guard let type = TextAttribute(oid: value.oid) else {
            throw .notRepresentable("\(what) has an attribute type Matter cannot encode")
        }
        guard let text = String(validating: value.value, as: UTF8.self) else {
            throw .notRepresentable("\(what) \(type) is not valid UTF-8")
        }
        switch (type, value.stringTag) {
        case (.domainComponent, DERTag.ia5String): return .text(type, text, printableString: false)
        case (.domainComponent, _): throw .notRepresentable("\(what) domainComponent must be an IA5String")
        case (_, DERTag.utf8String): return .text(type, text, printableString: false)
        case (_, DERTag.printableString): return .text(type, text, printableString: true)
        default: throw .notRepresentable("\(what) \(type) uses a string type other than UTF8String/PrintableString")
        }
    }
}
