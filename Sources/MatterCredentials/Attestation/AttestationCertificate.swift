public import MatterCore
public import MatterCrypto

/// A device attestation certificate (PAA, PAI or DAC): plain X.509 DER with an EC P-256 key.
///
/// Parsing reads what attestation needs: the subject's Vendor ID and Product ID (OIDs 1.3.6.1.4.1.37244.2.1 /
/// 2.2 as exactly 4 upper-case hex digits, or — only when neither OID is present — `Mvid:XXXX` / `Mpid:XXXX` in
/// the common name), key identifiers, basic constraints, key usage and validity. ``profileViolation(as:)``
/// checks the SDK's format rules per kind.
public struct AttestationCertificate: Sendable, Hashable {
    /// The three kinds of attestation certificate.
    package enum Kind: String, Sendable, Hashable {
        case paa = "PAA"
        case pai = "PAI"
        case dac = "DAC"
    }

    /// Validity in Unix seconds; `notAfter` of ``noExpiry`` encodes as GeneralizedTime `99991231235959Z`.
    package struct Validity: Hashable, Sendable {
        /// 9999-12-31T23:59:59Z.
        package static let noExpiry: Int64 = 253_402_300_799
        package var notBefore: Int64
        package var notAfter: Int64

        package init(notBefore: Int64, notAfter: Int64 = Validity.noExpiry) {
            self.notBefore = notBefore
            self.notAfter = notAfter
        }

        /// From a UTC date, without expiry.
        package static func noExpiry(fromYear year: Int, month: Int = 1, day: Int = 1) -> Validity {
            Validity(notBefore: UTCCalendar.unixSeconds(year: year, month: month, day: day))
        }
    }

    /// The largest DER certificate the SDK accepts.
    package static let maximumByteCount = 600

    public let derEncoded: [UInt8]
    public let commonName: String?
    public let vendorID: VendorID?
    public let productID: ProductID?
    public let subjectKeyIdentifier: [UInt8]?
    public let authorityKeyIdentifier: [UInt8]?
    /// Unix seconds.
    public let notBefore: Int64
    /// Unix seconds.
    public let notAfter: Int64
    public let publicKey: P256PublicKey
    let x509: X509Certificate

    /// Parses a DER certificate with an EC P-256 key. Throws ``CredentialsError/malformedDER(what:reason:)`` for
    /// broken DER or a malformed Vendor/Product ID and ``CredentialsError/notRepresentable(_:)`` for another key type.
    public init(der: [UInt8]) throws(CredentialsError) {
        let what = "attestation certificate"
        let parsed = try X509Certificate(der: der, what: what)
        guard parsed.publicKeyAlgorithm == OID.ecPublicKey, parsed.publicKeyCurve == OID.prime256v1 else {
            throw .notRepresentable("the public key is not an EC key on prime256v1")
        }
        do {
            publicKey = try P256PublicKey(x963Representation: parsed.publicKey)
        } catch {
            throw .malformedDER(what: what, reason: "public key: \(error)")
        }
        x509 = parsed
        derEncoded = der
        notBefore = parsed.notBefore
        notAfter = parsed.notAfter
        commonName = parsed.subjectAttribute(OID.commonName).flatMap { String(validating: $0.value, as: UTF8.self) }
        let vidAttribute = parsed.subjectAttribute(OID.matterVendorID)
        let pidAttribute = parsed.subjectAttribute(OID.matterProductID)
        if vidAttribute != nil || pidAttribute != nil {
            vendorID = try vidAttribute.map { (value) throws(CredentialsError) in
                VendorID(try Self.fourHexDigits(value.value, "Vendor ID"))
            }
            productID = try pidAttribute.map { (value) throws(CredentialsError) in
                ProductID(try Self.fourHexDigits(value.value, "Product ID"))
            }
        } else {
            let name = Array((commonName ?? "").utf8)
            vendorID = try Self.commonNameField(name, prefix: "Mvid:").map { VendorID($0) }
            productID = try Self.commonNameField(name, prefix: "Mpid:").map { ProductID($0) }
        }
        subjectKeyIdentifier = try parsed.extensionValue(OID.subjectKeyIdentifier).map {
            (ext) throws(CredentialsError) in
            let element = try DERParser.parseSingle(ext.value, what: what)
            guard element.tag == DERTag.octetString else {
                throw .malformedDER(what: what, reason: "SKID not an OCTET STRING")
            }
            return element.contents
        }
        authorityKeyIdentifier = try parsed.extensionValue(OID.authorityKeyIdentifier).map {
            (ext) throws(CredentialsError) in
            var parser = try DERParser.parseSingle(ext.value, what: what).contentsParser(what)
            return try parser.next(DERTag.contextPrimitive(0), "keyIdentifier").contents
        }
    }

    /// basicConstraints (CA flag and path length), if present.
    package var basicConstraints: (isCA: Bool, pathLength: Int?)? {
        guard let ext = x509.extensionValue(OID.basicConstraints),
            var parser = try? DERParser.parseSingle(ext.value, what: "basicConstraints").contentsParser(
                "basicConstraints")
        else { return nil }
        let isCA = (try? parser.optional(DERTag.boolean))??.contents == [0xFF]
        let pathLength = (try? parser.optional(DERTag.integer))??.contents.reduce(0) { $0 << 8 | Int($1) }
        return (isCA, pathLength)
    }

    /// keyUsage, if present.
    package var keyUsage: KeyUsage? {
        guard let ext = x509.extensionValue(OID.keyUsage),
            let bits = try? DERParser.parseSingle(ext.value, what: "keyUsage"), bits.tag == DERTag.bitString
        else { return nil }
        return KeyUsage(derBitString: bits.contents)
    }

    /// Whether `issuer`'s key verifies this certificate's signature.
    package func isSigned(by issuer: P256PublicKey) -> Bool {
        guard let signature = try? P256Signature(derRepresentation: x509.signature) else { return false }
        return issuer.isValidSignature(signature, for: x509.tbs)
    }

    /// Why this certificate breaks the SDK's attestation certificate format for `kind` (nil if it does not):
    /// v3, ecdsa-with-SHA256, ≤ 600 bytes; critical basicConstraints (DAC: not CA, no path length; PAI: CA, path
    /// length 0; PAA: CA, path length absent or 1); critical keyUsage (DAC: exactly digitalSignature; PAI/PAA:
    /// keyCertSign and cRLSign, digitalSignature tolerated, nothing else); a 20-byte SKID; a 20-byte AKID (optional
    /// for a PAA).
    package func profileViolation(as kind: Kind) -> String? {
        guard derEncoded.count <= Self.maximumByteCount else { return "DER is \(derEncoded.count) bytes (limit 600)" }
        guard x509.version == 3 else { return "not an X.509 v3 certificate" }
        guard x509.signatureAlgorithm == OID.ecdsaWithSHA256, x509.tbsSignatureAlgorithm == OID.ecdsaWithSHA256 else {
            return "not signed with ecdsa-with-SHA256"
        }
        guard let constraintsExtension = x509.extensionValue(OID.basicConstraints), constraintsExtension.critical,
            let constraints = basicConstraints
        else { return "critical basicConstraints missing" }
        switch kind {
        case .dac:
            guard !constraints.isCA, constraints.pathLength == nil else { return "a DAC must not be a CA" }
        case .pai:
            guard constraints.isCA, constraints.pathLength == 0 else { return "a PAI must be a CA with path length 0" }
        case .paa:
            guard constraints.isCA, constraints.pathLength == nil || constraints.pathLength == 1 else {
                return "a PAA must be a CA with path length absent or 1"
            }
        }
        guard let usageExtension = x509.extensionValue(OID.keyUsage), usageExtension.critical, let usage = keyUsage
        else {
            return "critical keyUsage missing"
        }
        if kind == .dac {
            guard usage == .digitalSignature else { return "a DAC's key usage must be exactly digitalSignature" }
        } else {
            guard usage.isSuperset(of: [.keyCertSign, .cRLSign]),
                usage.isSubset(of: [.keyCertSign, .cRLSign, .digitalSignature])
            else { return "a \(kind.rawValue)'s key usage must be keyCertSign and cRLSign" }
        }
        guard subjectKeyIdentifier?.count == 20 else { return "20-byte subject key identifier missing" }
        if kind != .paa || authorityKeyIdentifier != nil {
            guard authorityKeyIdentifier?.count == 20 else { return "20-byte authority key identifier missing" }
        }
        return nil
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.derEncoded == rhs.derEncoded }
    public func hash(into hasher: inout Hasher) { hasher.combine(derEncoded) }

    // MARK: VID/PID parsing

    private static func fourHexDigits(_ text: [UInt8], _ name: String) throws(CredentialsError) -> UInt16 {
        guard text.count == 4, let value = parseUpperHex(text) else {
            throw .malformedDER(
                what: "attestation certificate", reason: "\(name) must be exactly 4 upper-case hex digits")
        }
        return value
    }

    private static func commonNameField(_ name: [UInt8], prefix: String) throws(CredentialsError) -> UInt16? {
        let marker = Array(prefix.utf8)
        guard name.count >= marker.count + 4 else { return nil }
        for start in 0...(name.count - marker.count - 4)
        where name[start..<(start + marker.count)].elementsEqual(marker) {
            let digits = Array(name[(start + marker.count)..<(start + marker.count + 4)])
            guard let value = parseUpperHex(digits) else {
                throw .malformedDER(
                    what: "attestation certificate", reason: "\(prefix) must be followed by 4 hex digits")
            }
            return value
        }
        return nil
    }

    private static func parseUpperHex(_ digits: [UInt8]) -> UInt16? {
        var value: UInt16 = 0
        for digit in digits {
            switch digit {
            case 0x30...0x39: value = value << 4 | UInt16(digit - 0x30)
            case 0x41...0x46: value = value << 4 | UInt16(digit - 0x41 + 10)
            default: return nil
            }
        }
        return value
    }
}

// MARK: - Building

extension AttestationCertificate {
    /// A self-signed PAA in the SDK's profile: subject `CN=<name>[, VID]`; basicConstraints critical CA with path
    /// length 1; keyUsage critical keyCertSign+cRLSign; SKID; AKID (= SKID).
    package static func makePAA(
        key: P256PrivateKey, commonName: String, vendorID: VendorID?, validity: Validity,
        serialNumber: [UInt8]? = nil
    ) throws(CredentialsError) -> AttestationCertificate {
        let subject = name(commonName: commonName, vendorID: vendorID, productID: nil)
        return try make(
            subject: subject, publicKey: key.publicKey, issuer: subject, issuerKey: key, validity: validity,
            kind: .paa, serialNumber: serialNumber)
    }

    /// A PAI signed by `issuer`: subject `CN=<name>, VID[, PID]`; basicConstraints critical CA with path length 0;
    /// keyUsage critical keyCertSign+cRLSign; SKID; AKID.
    package static func makePAI(
        publicKey: P256PublicKey, commonName: String, vendorID: VendorID, productID: ProductID? = nil,
        validity: Validity, issuer: AttestationCertificate, issuerKey: P256PrivateKey, serialNumber: [UInt8]? = nil
    ) throws(CredentialsError) -> AttestationCertificate {
        try make(
            subject: name(commonName: commonName, vendorID: vendorID, productID: productID), publicKey: publicKey,
            issuer: issuer.x509.subjectEncoded, issuerKey: issuerKey, validity: validity, kind: .pai,
            serialNumber: serialNumber)
    }

    /// A DAC signed by `issuer` (a PAI): subject `CN=<name>, VID, PID`; basicConstraints critical not CA; keyUsage
    /// critical digitalSignature; SKID; AKID.
    package static func makeDAC(
        publicKey: P256PublicKey, commonName: String, vendorID: VendorID, productID: ProductID, validity: Validity,
        issuer: AttestationCertificate, issuerKey: P256PrivateKey, serialNumber: [UInt8]? = nil
    ) throws(CredentialsError) -> AttestationCertificate {
        try make(
            subject: name(commonName: commonName, vendorID: vendorID, productID: productID), publicKey: publicKey,
            issuer: issuer.x509.subjectEncoded, issuerKey: issuerKey, validity: validity, kind: .dac,
            serialNumber: serialNumber)
    }

    private static func name(commonName: String, vendorID: VendorID?, productID: ProductID?) -> [UInt8] {
        var attributes: [(oid: [UInt8], stringTag: UInt8, value: [UInt8])] = [
            (OID.commonName, DERTag.utf8String, Array(commonName.utf8))
        ]
        if let vendorID {
            attributes.append((OID.matterVendorID, DERTag.utf8String, Array(hex(UInt64(vendorID.rawValue), 4).utf8)))
        }
        if let productID {
            attributes.append((OID.matterProductID, DERTag.utf8String, Array(hex(UInt64(productID.rawValue), 4).utf8)))
        }
        return X509Builder.name(attributes)
    }

    private static func make(
        subject: [UInt8], publicKey: P256PublicKey, issuer: [UInt8], issuerKey: P256PrivateKey, validity: Validity,
        kind: Kind, serialNumber: [UInt8]?
    ) throws(CredentialsError) -> AttestationCertificate {
        let serial: [UInt8]
        if let serialNumber { serial = serialNumber } else { serial = try CertificateIdentifiers.randomSerialNumber() }
        let extensions = [
            X509Builder.basicConstraints(isCA: kind != .dac, pathLength: kind == .paa ? 1 : kind == .pai ? 0 : nil),
            X509Builder.keyUsage(kind == .dac ? .digitalSignature : [.keyCertSign, .cRLSign]),
            X509Builder.subjectKeyIdentifier(try CertificateIdentifiers.keyIdentifier(publicKey.x963Representation)),
            X509Builder.authorityKeyIdentifier(
                try CertificateIdentifiers.keyIdentifier(issuerKey.publicKey.x963Representation)),
        ]
        let tbs = X509Builder.tbsCertificate(
            serialNumber: serial, issuer: issuer, notBefore: try X509Time.encode(validity.notBefore),
            notAfter: try X509Time.encode(validity.notAfter), subject: subject,
            publicKey: publicKey.x963Representation, extensions: extensions)
        let signature = try withCrypto { () throws(CryptoError) in try issuerKey.signature(for: tbs).derRepresentation()
        }
        return try AttestationCertificate(der: X509Builder.certificate(tbs: tbs, signatureDER: signature))
    }
}
