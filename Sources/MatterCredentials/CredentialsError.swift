public import MatterCrypto

/// The place of an operational certificate in a Matter chain RCAC → [ICAC →] NOC.
public enum CertificateRole: String, Sendable, Hashable, CustomStringConvertible {
    /// Root CA certificate (self-signed, carries matter-rcac-id).
    case rcac = "RCAC"
    /// Intermediate CA certificate (carries matter-icac-id).
    case icac = "ICAC"
    /// Node operational certificate (carries matter-node-id and matter-fabric-id).
    case noc = "NOC"

    public var description: String { rawValue }
}

/// Why a certificate, CSR, key, certification declaration or attestation element was rejected.
///
/// Every throwing API of `MatterCredentials` throws this type. Bytes that cannot be parsed are one of the
/// `malformed…` cases; well-formed operational certificates that break a Matter rule have one case per rule
/// (naming the certificate's ``CertificateRole``); device attestation failures are ``attestation(_:)`` with the
/// SDK's result code.
public enum CredentialsError: Error, Equatable, Sendable, CustomStringConvertible {
    // MARK: Encoding

    /// Matter TLV bytes (a certificate, NOCSR/attestation elements, a certification declaration) are not valid.
    case malformedTLV(what: String, reason: String)
    /// DER bytes (X.509, PKCS#10, CMS) cannot be parsed.
    case malformedDER(what: String, reason: String)
    /// PEM text has no block with the expected label, or its base64 is broken.
    case malformedPEM(String)
    /// An X.509 certificate is valid DER but has no Matter TLV form (for example a PrintableString node ID, a
    /// non-P-256 key, or an extension the compact form cannot carry).
    case notRepresentable(String)
    /// A value passed to a builder is out of range (a serial number of 21 bytes, a 17-byte key ID…).
    case invalidArgument(String)
    /// The underlying cryptography failed (bad key encoding, OpenSSL failure).
    case crypto(CryptoError)

    // MARK: Operational certificate rules

    /// A TLV certificate longer than 400 bytes, or its DER form longer than 600 bytes.
    case certificateTooLarge(size: Int, limit: Int)
    /// The subject does not carry exactly the identifier attribute the role requires (matter-rcac-id,
    /// matter-icac-id, or matter-node-id), or carries another role's identifier.
    case wrongCertificateType(role: CertificateRole, reason: String)
    /// A Matter DN attribute that may appear once appears more than once.
    case duplicateAttribute(role: CertificateRole, attribute: String)
    /// A NOC's node ID is not an operational node ID (0x1 … 0xFFFFFFEFFFFFFFFF).
    case invalidNodeID(UInt64)
    /// A fabric ID of 0, or a NOC without a fabric ID.
    case invalidFabricID(role: CertificateRole)
    /// An RCAC or ICAC fabric ID differs from the NOC's.
    case fabricIDMismatch(role: CertificateRole, expected: UInt64, found: UInt64)
    /// A CASE Authenticated Tag with version 0, or one outside a NOC.
    case invalidCASEAuthenticatedTag(UInt32)
    /// More than three CATs in a NOC.
    case tooManyCASEAuthenticatedTags(count: Int)
    /// Two CATs with the same identifier (upper 16 bits).
    case duplicateCASEAuthenticatedTagIdentifier(UInt16)
    /// The issuer DN does not equal the parent's subject DN (or, for an RCAC, its own subject).
    case issuerMismatch(role: CertificateRole)
    /// basicConstraints absent, CA flag wrong for the role, or path length violated.
    case invalidBasicConstraints(role: CertificateRole, reason: String)
    /// keyUsage absent or lacking the usage the role needs.
    case invalidKeyUsage(role: CertificateRole, reason: String)
    /// extendedKeyUsage of a NOC lacking clientAuth or serverAuth.
    case invalidExtendedKeyUsage(role: CertificateRole, reason: String)
    /// subjectKeyIdentifier (`authority == false`) or authorityKeyIdentifier missing.
    case missingKeyIdentifier(role: CertificateRole, authority: Bool)
    /// The authority key ID does not equal the issuer's subject key ID.
    case authorityKeyIdentifierMismatch(role: CertificateRole)
    /// The validation time is before notBefore.
    case certificateNotYetValid(role: CertificateRole)
    /// The validation time is after notAfter.
    case certificateExpired(role: CertificateRole)
    /// The signature does not verify with the issuer's public key.
    case invalidSignature(role: CertificateRole)
    /// The certificate's public key is not a valid uncompressed P-256 point.
    case invalidPublicKey(role: CertificateRole, reason: String)

    // MARK: CSR and NOCSR

    /// A PKCS#10 CSR whose self-signature does not verify.
    case csrSignatureInvalid
    /// The NOCSR elements carry another CSR nonce than the one sent in CSRRequest.
    case nocsrNonceMismatch
    /// The NOCSR attestation signature does not verify with the DAC public key.
    case nocsrSignatureInvalid
    /// A certificate's public key differs from the key it must match (NOC vs CSR).
    case publicKeyMismatch

    // MARK: Certification declaration

    /// The CMS signature over a certification declaration does not verify with the given key.
    case certificationDeclarationSignatureInvalid

    // MARK: Device attestation

    /// Device attestation verification failed; the failure carries the SDK's result code.
    case attestation(DeviceAttestationFailure)

    public var description: String {
        switch self {
        case .malformedTLV(let what, let reason): "malformed \(what) (TLV): \(reason)"
        case .malformedDER(let what, let reason): "malformed \(what) (DER): \(reason)"
        case .malformedPEM(let reason): "malformed PEM: \(reason)"
        case .notRepresentable(let reason): "X.509 certificate has no Matter TLV form: \(reason)"
        case .invalidArgument(let reason): "invalid argument: \(reason)"
        case .crypto(let error): "cryptography failed: \(error)"
        case .certificateTooLarge(let size, let limit): "certificate is \(size) bytes long; the limit is \(limit)"
        case .wrongCertificateType(let role, let reason): "\(role) subject is not that of a \(role): \(reason)"
        case .duplicateAttribute(let role, let attribute): "\(role) subject carries \(attribute) more than once"
        case .invalidNodeID(let value): "node ID 0x\(hex(value, 16)) is not an operational node ID"
        case .invalidFabricID(let role): "\(role) has a missing or zero fabric ID"
        case .fabricIDMismatch(let role, let expected, let found):
            "\(role) fabric ID 0x\(hex(found, 16)) differs from the NOC's 0x\(hex(expected, 16))"
        case .invalidCASEAuthenticatedTag(let value): "CASE Authenticated Tag 0x\(hex(UInt64(value), 8)) is invalid"
        case .tooManyCASEAuthenticatedTags(let count): "NOC carries \(count) CASE Authenticated Tags; at most 3 allowed"
        case .duplicateCASEAuthenticatedTagIdentifier(let identifier):
            "NOC carries two CASE Authenticated Tags with identifier 0x\(hex(UInt64(identifier), 4))"
        case .issuerMismatch(let role): "\(role) issuer does not match its issuer's subject"
        case .invalidBasicConstraints(let role, let reason): "\(role) basic constraints: \(reason)"
        case .invalidKeyUsage(let role, let reason): "\(role) key usage: \(reason)"
        case .invalidExtendedKeyUsage(let role, let reason): "\(role) extended key usage: \(reason)"
        case .missingKeyIdentifier(let role, let authority):
            "\(role) has no \(authority ? "authority" : "subject") key identifier"
        case .authorityKeyIdentifierMismatch(let role): "\(role) authority key ID is not its issuer's subject key ID"
        case .certificateNotYetValid(let role): "\(role) is not valid yet (before notBefore)"
        case .certificateExpired(let role): "\(role) has expired (after notAfter)"
        case .invalidSignature(let role): "\(role) signature does not verify with its issuer's key"
        case .invalidPublicKey(let role, let reason): "\(role) public key is invalid: \(reason)"
        case .csrSignatureInvalid: "the CSR's self-signature does not verify"
        case .nocsrNonceMismatch: "the NOCSR elements carry a different CSR nonce than the one sent"
        case .nocsrSignatureInvalid: "the NOCSR attestation signature does not verify with the DAC public key"
        case .publicKeyMismatch: "the certificate's public key differs from the expected (CSR) key"
        case .certificationDeclarationSignatureInvalid: "the certification declaration's CMS signature does not verify"
        case .attestation(let failure): "device attestation failed: \(failure)"
        }
    }
}

/// Upper-case hex, zero-padded to `width` digits.
func hex(_ value: UInt64, _ width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// Runs a `MatterCrypto` call, wrapping its error.
@inline(__always)
func withCrypto<T>(_ body: () throws(CryptoError) -> T) throws(CredentialsError) -> T {
    do { return try body() } catch { throw .crypto(error) }
}
