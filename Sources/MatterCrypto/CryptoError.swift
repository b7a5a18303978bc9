/// Why a cryptographic operation failed.
///
/// Every throwing API of `MatterCrypto` throws this type. Expected outcomes of verification are kept apart from
/// malformed input: a signature that does not verify is `false` from `isValidSignature`, an AEAD tag that does
/// not verify is ``authenticationFailed``, a SPAKE2+ confirmation value that does not match is
/// ``confirmationFailed``; bytes that cannot even be parsed are one of the `invalid…` cases.
public enum CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An input has the wrong size: `what` names it, `expected` and `actual` are byte counts.
    case invalidLength(what: String, expected: Int, actual: Int)
    /// An argument is outside the range the algorithm accepts (iteration count, output length, …).
    case invalidParameter(String)
    /// A private key (raw scalar, SEC1 or PKCS#8 DER) is malformed, not on P-256, or out of range.
    case invalidPrivateKey(String)
    /// A public key (uncompressed point or SubjectPublicKeyInfo DER) is malformed or not a P-256 point.
    case invalidPublicKey(String)
    /// A curve point received in a protocol (a SPAKE2+ share) is malformed, off the curve or the identity.
    case invalidPoint(String)
    /// An ECDSA signature encoding (raw r‖s or DER) is malformed.
    case invalidSignature(String)
    /// AES-CCM: the tag does not authenticate the ciphertext and associated data (wrong key, nonce, or tampering).
    case authenticationFailed
    /// SPAKE2+: the peer's key-confirmation MAC does not match (typically: a wrong passcode).
    case confirmationFailed
    /// A multi-step operation was used out of order (for example a SPAKE2+ step repeated).
    case invalidState(String)
    /// OpenSSL reported a failure that no input explains (allocation, provider not available, …).
    /// `reasons` are OpenSSL's own error strings, oldest first, drained from its error queue at the failing call.
    case openSSLFailure(function: String, reasons: [String])

    public var description: String {
        switch self {
        case .invalidLength(let what, let expected, let actual):
            return "\(what) must be \(expected) bytes long, got \(actual)"
        case .invalidParameter(let message):
            return "invalid parameter: \(message)"
        case .invalidPrivateKey(let message):
            return "invalid P-256 private key: \(message)"
        case .invalidPublicKey(let message):
            return "invalid P-256 public key: \(message)"
        case .invalidPoint(let message):
            return "invalid curve point: \(message)"
        case .invalidSignature(let message):
            return "malformed ECDSA signature: \(message)"
        case .authenticationFailed:
            return "AES-CCM authentication failed: the message was altered or the key or nonce is wrong"
        case .confirmationFailed:
            return "SPAKE2+ key confirmation failed: the peer does not know the same passcode"
        case .invalidState(let message):
            return "operation out of order: \(message)"
        case .openSSLFailure(let function, let reasons):
            let detail = reasons.isEmpty ? "no reason reported" : reasons.joined(separator: "; ")
            return "OpenSSL \(function) failed: \(detail)"
        }
    }
}
