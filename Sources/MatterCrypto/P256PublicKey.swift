/// A P-256 (secp256r1) public key: ECDSA-SHA256 verification and the peer side of ECDH.
///
/// Imports are validated: the point must be on the curve and not the identity.
public struct P256PublicKey: Sendable, Equatable {
    /// Size of the uncompressed SEC1 encoding (`04‖X‖Y`).
    public static let x963ByteCount = 65

    let key: EVPKey
    /// The uncompressed SEC1 point `04‖X‖Y`, 65 bytes (the form Matter puts on the wire and in certificates).
    public let x963Representation: [UInt8]

    /// Imports a 65-byte uncompressed point (`04‖X‖Y`). Compressed and hybrid encodings are rejected.
    public init(x963Representation bytes: [UInt8]) throws(CryptoError) {
        guard bytes.count == Self.x963ByteCount else {
            throw .invalidLength(
                what: "P-256 uncompressed public key", expected: Self.x963ByteCount, actual: bytes.count)
        }
        do {
            _ = try ECPoint(group: try ECGroup(), uncompressed: bytes, what: "public key")
        } catch {
            if case .invalidPoint(let reason) = error { throw .invalidPublicKey(reason) }
            throw error
        }
        try self.init(validatedPoint: bytes)
    }

    /// Imports a DER `SubjectPublicKeyInfo` (RFC 5480) holding a P-256 key.
    public init(subjectPublicKeyInfoDERRepresentation der: [UInt8]) throws(CryptoError) {
        guard let decoded = EVPKey.decode(.subjectPublicKeyInfo, der: der) else {
            throw .invalidPublicKey("not a DER SubjectPublicKeyInfo holding a P-256 key")
        }
        try self.init(x963Representation: try decoded.publicPoint())
    }

    /// Copies the public key out of a borrowed `EVP_PKEY*` (for example from `X509_get0_pubkey`), for sibling
    /// modules that parse certificates with OpenSSL. Throws unless it is a P-256 key.
    package init(copyingEVPPKey borrowed: OpaquePointer) throws(CryptoError) {
        let retained = try EVPKey.retaining(borrowed)
        guard retained.isP256 else { throw .invalidPublicKey("the key is not an EC key on P-256") }
        try self.init(x963Representation: try retained.publicPoint())
    }

    /// Wraps a point already known to be a valid uncompressed P-256 point.
    init(validatedPoint bytes: [UInt8]) throws(CryptoError) {
        key = try EVPKey.p256(privateScalar: nil, publicPoint: bytes)
        x963Representation = bytes
    }

    /// DER `SubjectPublicKeyInfo` (id-ecPublicKey, prime256v1, uncompressed point).
    public func subjectPublicKeyInfoDERRepresentation() throws(CryptoError) -> [UInt8] {
        try key.encode(.subjectPublicKeyInfo)
    }

    /// Whether `signature` is a valid ECDSA-SHA256 signature of `message` by this key.
    /// A mismatch (or any internal failure) is `false`, never an error.
    public func isValidSignature(_ signature: P256Signature, for message: [UInt8]) -> Bool {
        guard let der = try? signature.derRepresentation() else { return false }
        return key.verifySHA256(der: der, message: message)
    }

    /// Runs `body` with this key's public-only `EVP_PKEY*`, for sibling modules that call OpenSSL directly.
    /// The pointer is valid only inside `body` and must not be freed or stored.
    package func withUnsafeEVPPKey<R, E: Error>(_ body: (OpaquePointer) throws(E) -> R) throws(E) -> R {
        try key.withPointer(body)
    }

    public static func == (lhs: P256PublicKey, rhs: P256PublicKey) -> Bool {
        lhs.x963Representation == rhs.x963Representation
    }
}
