/// An ECDSA P-256 signature in Matter's raw form: r‖s, each 32 bytes big-endian, zero-padded (64 bytes).
///
/// Matter puts this form on the wire (CASE, attestation); X.509 and OpenSSL use DER, see
/// ``init(derRepresentation:)`` and ``derRepresentation()``.
public struct P256Signature: Sendable, Equatable {
    /// Size of the raw form.
    public static let rawByteCount = 64

    /// r‖s, 64 bytes.
    public let rawRepresentation: [UInt8]

    /// Wraps a raw r‖s signature. Throws unless it is exactly 64 bytes.
    public init(rawRepresentation raw: [UInt8]) throws(CryptoError) {
        guard raw.count == Self.rawByteCount else {
            throw .invalidLength(what: "raw ECDSA P-256 signature", expected: Self.rawByteCount, actual: raw.count)
        }
        rawRepresentation = raw
    }

    /// Parses a DER `ECDSA-Sig-Value` (`SEQUENCE { INTEGER r, INTEGER s }`). Strict: canonical DER, no trailing
    /// bytes, r and s no longer than 32 bytes.
    public init(derRepresentation der: [UInt8]) throws(CryptoError) {
        rawRepresentation = try ECDSASignatureDER.raw(fromDER: der)
    }

    init(validatedRaw raw: [UInt8]) { rawRepresentation = raw }

    /// The DER `ECDSA-Sig-Value` encoding.
    public func derRepresentation() throws(CryptoError) -> [UInt8] {
        try ECDSASignatureDER.der(fromRaw: rawRepresentation)
    }
}
