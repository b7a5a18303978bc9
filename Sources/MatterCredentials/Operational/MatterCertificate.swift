package import MatterCrypto
import MatterTLV

/// A Matter operational certificate (RCAC, ICAC or NOC) in its compact Matter TLV form, convertible to and from
/// X.509 DER byte for byte.
///
/// TLV layout (anonymous structure, context tags, in this order):
///
/// | tag | field | type | notes |
/// |---|---|---|---|
/// | 1 | serial-num | octets (≤ 20) | the DER INTEGER contents, verbatim |
/// | 2 | sig-algo | uint | 1 = ecdsa-with-SHA256 |
/// | 3 | issuer | list | ``MatterDistinguishedName`` |
/// | 4 | not-before | uint32 | Matter-epoch seconds |
/// | 5 | not-after | uint32 | Matter-epoch seconds, 0 = no expiry |
/// | 6 | subject | list | ``MatterDistinguishedName`` |
/// | 7 | pub-key-algo | uint | 1 = id-ecPublicKey |
/// | 8 | ec-curve-id | uint | 1 = prime256v1 |
/// | 9 | ec-pub-key | octets (65) | uncompressed point |
/// | 10 | extensions | list | ``MatterCertificateExtension`` |
/// | 11 | signature | octets (64) | raw r‖s over ``tbsDER`` |
///
/// The signature is computed over the DER `TBSCertificate` this TLV deterministically expands to
/// (``tbsDER``); ``derEncoded`` is the full X.509 certificate.
package struct MatterCertificate: Hashable, Sendable {
    /// Longest TLV form the SDK accepts (`kMaxCHIPCertLength`).
    package static let maximumTLVByteCount = 400
    /// Longest DER form the SDK accepts (`kMaxDERCertLength`).
    package static let maximumDERByteCount = 600

    /// The serial number: the contents of a DER INTEGER (1…20 bytes, a leading 00 when the top bit is set).
    package var serialNumber: [UInt8]
    package var issuer: MatterDistinguishedName
    /// Matter-epoch seconds; 0 stands for 9999-12-31T23:59:59Z in DER.
    package var notBefore: UInt32
    /// Matter-epoch seconds; 0 means no expiry (9999-12-31T23:59:59Z).
    package var notAfter: UInt32
    package var subject: MatterDistinguishedName
    /// The 65-byte uncompressed P-256 public key.
    package var publicKey: [UInt8]
    package var extensions: [MatterCertificateExtension]
    /// The raw 64-byte r‖s signature (empty until signed).
    package var signature: [UInt8]

    package init(
        serialNumber: [UInt8], issuer: MatterDistinguishedName, notBefore: UInt32, notAfter: UInt32,
        subject: MatterDistinguishedName, publicKey: [UInt8], extensions: [MatterCertificateExtension],
        signature: [UInt8] = []
    ) {
        self.serialNumber = serialNumber
        self.issuer = issuer
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.subject = subject
        self.publicKey = publicKey
        self.extensions = extensions
        self.signature = signature
    }

    // MARK: Extension accessors

    /// basicConstraints, if present.
    package var basicConstraints: (isCA: Bool, pathLengthConstraint: UInt8?)? {
        for case .basicConstraints(let isCA, let pathLength) in extensions { return (isCA, pathLength) }
        return nil
    }
    /// keyUsage, if present.
    package var keyUsage: KeyUsage? {
        for case .keyUsage(let usage) in extensions { return usage }
        return nil
    }
    /// extendedKeyUsage, if present.
    package var extendedKeyUsage: [KeyPurpose]? {
        for case .extendedKeyUsage(let purposes) in extensions { return purposes }
        return nil
    }
    /// subjectKeyIdentifier, if present.
    package var subjectKeyIdentifier: [UInt8]? {
        for case .subjectKeyIdentifier(let id) in extensions { return id }
        return nil
    }
    /// authorityKeyIdentifier, if present.
    package var authorityKeyIdentifier: [UInt8]? {
        for case .authorityKeyIdentifier(let id) in extensions { return id }
        return nil
    }

    /// The public key as a `P256PublicKey` (validated: on the curve).
    package func publicKeyValue() throws(CredentialsError) -> P256PublicKey {
        try withCrypto { () throws(CryptoError) in try P256PublicKey(x963Representation: publicKey) }
    }

    /// Whether the signature verifies over ``tbsDER`` with `issuerPublicKey`.
    package func isSignatureValid(issuerPublicKey: P256PublicKey) throws(CredentialsError) -> Bool {
        guard let signature = try? P256Signature(rawRepresentation: signature) else { return false }
        return issuerPublicKey.isValidSignature(signature, for: try tbsDER)
    }

    /// This certificate signed with `key` (the issuer's key; the subject's own for a self-signed root).
    package func signed(with key: P256PrivateKey) throws(CredentialsError) -> MatterCertificate {
        var copy = self
        let tbs = try tbsDER
        copy.signature = try withCrypto { () throws(CryptoError) in try key.signature(for: tbs).rawRepresentation }
        return copy
    }
}

// MARK: - TLV

extension MatterCertificate {
    private enum Tag {
        static let serialNumber: UInt8 = 1, signatureAlgorithm: UInt8 = 2, issuer: UInt8 = 3, notBefore: UInt8 = 4
        static let notAfter: UInt8 = 5, subject: UInt8 = 6, publicKeyAlgorithm: UInt8 = 7, curve: UInt8 = 8
        static let publicKey: UInt8 = 9, extensions: UInt8 = 10, signature: UInt8 = 11
    }

    private enum ExtensionTag {
        static let basicConstraints: UInt8 = 1, keyUsage: UInt8 = 2, extendedKeyUsage: UInt8 = 3
        static let subjectKeyIdentifier: UInt8 = 4, authorityKeyIdentifier: UInt8 = 5, future: UInt8 = 6
    }

    /// Decodes a Matter TLV certificate (at most 400 bytes). Fields must appear in tag order; integers may use
    /// any width.
    package init(tlv bytes: [UInt8]) throws(CredentialsError) {
        guard bytes.count <= Self.maximumTLVByteCount else {
            throw .certificateTooLarge(size: bytes.count, limit: Self.maximumTLVByteCount)
        }
        let root: TLVElement
        do { root = try TLVElement.decode(bytes) } catch {
            throw .malformedTLV(what: "certificate", reason: "\(error)")
        }
        guard root.tag == .anonymous, case .structure(let members) = root.value else {
            throw Self.tlvError("the certificate must be an anonymous structure")
        }
        var fields = TLVFieldReader(members: members, what: "certificate")
        serialNumber = try fields.bytes(Tag.serialNumber, "serial-num")
        guard (1...20).contains(serialNumber.count) else {
            throw Self.tlvError("serial-num must be 1…20 bytes, got \(serialNumber.count)")
        }
        guard try fields.unsigned(Tag.signatureAlgorithm, "sig-algo") == 1 else {
            throw Self.tlvError("sig-algo must be 1 (ecdsa-with-SHA256)")
        }
        issuer = try MatterDistinguishedName(tlvList: fields.list(Tag.issuer, "issuer"), what: "issuer")
        notBefore = try fields.uint32(Tag.notBefore, "not-before")
        notAfter = try fields.uint32(Tag.notAfter, "not-after")
        subject = try MatterDistinguishedName(tlvList: fields.list(Tag.subject, "subject"), what: "subject")
        guard try fields.unsigned(Tag.publicKeyAlgorithm, "pub-key-algo") == 1 else {
            throw Self.tlvError("pub-key-algo must be 1 (id-ecPublicKey)")
        }
        guard try fields.unsigned(Tag.curve, "ec-curve-id") == 1 else {
            throw Self.tlvError("ec-curve-id must be 1 (prime256v1)")
        }
        publicKey = try fields.bytes(Tag.publicKey, "ec-pub-key")
        guard publicKey.count == 65, publicKey.first == 0x04 else {
            throw Self.tlvError("ec-pub-key must be a 65-byte uncompressed point")
        }
        extensions = try Self.decodeExtensions(fields.list(Tag.extensions, "extensions"))
        signature = try fields.bytes(Tag.signature, "signature")
        guard signature.count == 64 else { throw Self.tlvError("signature must be 64 bytes, got \(signature.count)") }
        try fields.expectEnd()
    }

    /// The Matter TLV encoding (minimal integer widths, as the SDK writes it).
    package var tlvEncoded: [UInt8] {
        var writer = TLVWriter(capacity: 300)
        writer.putStructure { w in
            w.putBytes(serialNumber, tag: .context(Tag.serialNumber))
            w.putUnsigned(1, tag: .context(Tag.signatureAlgorithm))
            issuer.encode(to: &w, tag: Tag.issuer)
            w.putUnsigned(UInt64(notBefore), tag: .context(Tag.notBefore))
            w.putUnsigned(UInt64(notAfter), tag: .context(Tag.notAfter))
            subject.encode(to: &w, tag: Tag.subject)
            w.putUnsigned(1, tag: .context(Tag.publicKeyAlgorithm))
            w.putUnsigned(1, tag: .context(Tag.curve))
            w.putBytes(publicKey, tag: .context(Tag.publicKey))
            w.putList(tag: .context(Tag.extensions)) { w in
                for ext in extensions { Self.encode(ext, to: &w) }
            }
            w.putBytes(signature, tag: .context(Tag.signature))
        }
        return writer.bytes
    }

    private static func encode(_ ext: MatterCertificateExtension, to w: inout TLVWriter) {
        switch ext {
        case .basicConstraints(let isCA, let pathLength):
            w.putStructure(tag: .context(ExtensionTag.basicConstraints)) { w in
                w.put(isCA, tag: .context(1))
                if let pathLength { w.putUnsigned(UInt64(pathLength), tag: .context(2)) }
            }
        case .keyUsage(let usage): w.putUnsigned(UInt64(usage.rawValue), tag: .context(ExtensionTag.keyUsage))
        case .extendedKeyUsage(let purposes):
            w.putArray(tag: .context(ExtensionTag.extendedKeyUsage)) { w in
                for purpose in purposes { w.putUnsigned(UInt64(purpose.rawValue)) }
            }
        case .subjectKeyIdentifier(let id): w.putBytes(id, tag: .context(ExtensionTag.subjectKeyIdentifier))
        case .authorityKeyIdentifier(let id): w.putBytes(id, tag: .context(ExtensionTag.authorityKeyIdentifier))
        case .future(let der): w.putBytes(der, tag: .context(ExtensionTag.future))
        }
    }

    private static func decodeExtensions(_ members: [TLVElement]) throws(CredentialsError)
        -> [MatterCertificateExtension]
    {
        var out: [MatterCertificateExtension] = []
        for member in members {
            guard case .context(let tag) = member.tag else { throw tlvError("an extension has a non-context tag") }
            switch tag {
            case ExtensionTag.basicConstraints:
                guard case .structure(let fields) = member.value,
                    let isCA = fields.first(where: { $0.tag == .context(1) })?.bool
                else { throw tlvError("basic-constraints must be a structure with is-ca (bool)") }
                var pathLength: UInt8?
                if let element = fields.first(where: { $0.tag == .context(2) }) {
                    guard let value = element.uint, let narrow = UInt8(exactly: value) else {
                        throw tlvError("basic-constraints path-len-constraint must be a uint8")
                    }
                    pathLength = narrow
                }
                guard fields.allSatisfy({ $0.tag == .context(1) || $0.tag == .context(2) }), fields.count <= 2 else {
                    throw tlvError("basic-constraints has unknown members")
                }
                out.append(.basicConstraints(isCA: isCA, pathLengthConstraint: pathLength))
            case ExtensionTag.keyUsage:
                guard let value = member.uint, let narrow = UInt16(exactly: value), narrow <= 0x1FF else {
                    throw tlvError("key-usage must be a uint of at most 9 bits")
                }
                out.append(.keyUsage(KeyUsage(rawValue: narrow)))
            case ExtensionTag.extendedKeyUsage:
                guard case .array(let items) = member.value else {
                    throw tlvError("extended-key-usage must be an array")
                }
                var purposes: [KeyPurpose] = []
                for item in items {
                    guard let value = item.uint, let narrow = UInt8(exactly: value),
                        let purpose = KeyPurpose(rawValue: narrow)
                    else { throw tlvError("extended-key-usage holds an unknown key purpose") }
                    purposes.append(purpose)
                }
                out.append(.extendedKeyUsage(purposes))
            case ExtensionTag.subjectKeyIdentifier, ExtensionTag.authorityKeyIdentifier:
                guard let id = member.bytes, id.count == 20 else { throw tlvError("key identifiers must be 20 bytes") }
                out.append(
                    tag == ExtensionTag.subjectKeyIdentifier ? .subjectKeyIdentifier(id) : .authorityKeyIdentifier(id))
            case ExtensionTag.future:
                guard let der = member.bytes,
                    let parsed = try? DERParser.parseSingle(der, what: "future extension"),
                    parsed.tag == DERTag.sequence
                else { throw tlvError("future-extension must hold one DER Extension SEQUENCE") }
                out.append(.future(der))
            default:
                throw tlvError("unknown extension tag \(tag)")
            }
        }
        return out
    }

    static func tlvError(_ reason: String) -> CredentialsError { .malformedTLV(what: "certificate", reason: reason) }
}

// MARK: - DN TLV

extension MatterDistinguishedName {
    init(tlvList members: [TLVElement], what: String) throws(CredentialsError) {
        var attributes: [Attribute] = []
        for member in members {
            guard case .context(let rawTag) = member.tag else {
                throw MatterCertificate.tlvError("\(what) attribute has a non-context tag")
            }
            let number = rawTag & 0x7F
            let printable = rawTag & 0x80 != 0
            switch number {
            case 1...16:
                guard let text = member.string else {
                    throw MatterCertificate.tlvError("\(what) attribute \(number) must be a UTF-8 string")
                }
                guard let type = TextAttribute(rawValue: number), !(printable && type == .domainComponent) else {
                    throw MatterCertificate.tlvError("\(what) domainComponent cannot be a PrintableString")
                }
                attributes.append(.text(type, text, printableString: printable))
            case 17...22:
                guard !printable else {
                    throw MatterCertificate.tlvError("\(what) attribute \(rawTag) is not a string")
                }
                guard let value = member.uint else {
                    throw MatterCertificate.tlvError("\(what) attribute \(number) must be an unsigned integer")
                }
                switch number {
                case 17: attributes.append(.nodeID(value))
                case 18: attributes.append(.firmwareSigningID(value))
                case 19: attributes.append(.icacID(value))
                case 20: attributes.append(.rcacID(value))
                case 21: attributes.append(.fabricID(value))
                default:
                    guard let cat = UInt32(exactly: value) else {
                        throw MatterCertificate.tlvError("\(what) matter-noc-cat must fit in 32 bits")
                    }
                    attributes.append(.caseAuthenticatedTag(CASEAuthenticatedTag(rawValue: cat)))
                }
            default:
                throw MatterCertificate.tlvError("\(what) has an unknown attribute tag \(rawTag)")
            }
        }
        self.init(attributes)
    }

    func encode(to writer: inout TLVWriter, tag: UInt8) {
        writer.putList(tag: .context(tag)) { w in
            for attribute in attributes {
                let tag = TLVTag.context(attribute.tlvTag)
                switch attribute {
                case .nodeID(let v), .firmwareSigningID(let v), .icacID(let v), .rcacID(let v), .fabricID(let v):
                    w.putUnsigned(v, tag: tag)
                case .caseAuthenticatedTag(let cat): w.putUnsigned(UInt64(cat.rawValue), tag: tag)
                case .text(_, let text, _): w.put(text, tag: tag)
                }
            }
        }
    }
}

/// Reads structure members strictly in order.
struct TLVFieldReader {
    private let members: [TLVElement]
    private var index = 0
    let what: String

    init(members: [TLVElement], what: String) {
        self.members = members
        self.what = what
    }

    private mutating func next(_ tag: UInt8, _ name: String) throws(CredentialsError) -> TLVElement {
        guard index < members.count else { throw fail("\(name) (tag \(tag)) is missing") }
        let member = members[index]
        guard member.tag == .context(tag) else {
            throw fail("expected \(name) (tag \(tag)), found tag \(member.tag)")
        }
        index += 1
        return member
    }

    /// Whether the next member carries `tag`.
    func peek(_ tag: UInt8) -> Bool { index < members.count && members[index].tag == .context(tag) }

    /// The next member if it carries `tag`.
    mutating func optional(_ tag: UInt8) -> TLVElement? {
        guard index < members.count, members[index].tag == .context(tag) else { return nil }
        index += 1
        return members[index - 1]
    }

    mutating func bytes(_ tag: UInt8, _ name: String) throws(CredentialsError) -> [UInt8] {
        guard let value = try next(tag, name).bytes else { throw fail("\(name) must be an octet string") }
        return value
    }

    mutating func unsigned(_ tag: UInt8, _ name: String) throws(CredentialsError) -> UInt64 {
        guard let value = try next(tag, name).uint else { throw fail("\(name) must be an unsigned integer") }
        return value
    }

    mutating func uint32(_ tag: UInt8, _ name: String) throws(CredentialsError) -> UInt32 {
        guard let value = UInt32(exactly: try unsigned(tag, name)) else { throw fail("\(name) must fit in 32 bits") }
        return value
    }

    mutating func list(_ tag: UInt8, _ name: String) throws(CredentialsError) -> [TLVElement] {
        guard case .list(let items) = try next(tag, name).value else { throw fail("\(name) must be a list") }
        return items
    }

    /// The remaining members (for tolerant readers).
    mutating func rest() -> ArraySlice<TLVElement> {
        defer { index = members.count }
        return members[index...]
    }

    func expectEnd() throws(CredentialsError) {
        guard index == members.count else { throw fail("unexpected member with tag \(members[index].tag)") }
    }

    func fail(_ reason: String) -> CredentialsError { .malformedTLV(what: what, reason: reason) }
}
