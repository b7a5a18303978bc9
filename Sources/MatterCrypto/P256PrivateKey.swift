/// A P-256 (secp256r1) private key: ECDSA-SHA256 signing and ECDH.
///
/// Imports and exports the raw 32-byte scalar, SEC1 `ECPrivateKey` DER and PKCS#8 `PrivateKeyInfo` DER. Every
/// import is validated (scalar in [1, n-1], curve is P-256) and the public key is always recomputed from the
/// scalar; a DER key whose embedded public key does not match its scalar is rejected.
public struct P256PrivateKey: Sendable {
    /// Size of the raw private scalar.
    public static let rawByteCount = 32

    let key: EVPKey
    /// The matching public key.
    public let publicKey: P256PublicKey

    /// Generates a fresh random key pair.
    public init() throws(CryptoError) {
        let generated = try EVPKey.generate()
        let point = try generated.publicPoint()
        self.init(key: generated, publicKey: try P256PublicKey(validatedPoint: point))
    }

    /// Imports a raw big-endian scalar (32 bytes, in [1, n-1]).
    public init(rawRepresentation raw: [UInt8]) throws(CryptoError) {
        guard raw.count == Self.rawByteCount else {
            throw .invalidLength(what: "P-256 raw private key", expected: Self.rawByteCount, actual: raw.count)
        }
        let group = try ECGroup()
        let scalar = try BigNum(bytes: raw, secret: true)
        guard try group.isValidNonZeroScalar(scalar) else {
            throw .invalidPrivateKey("the scalar must be in [1, n-1] for the P-256 group order n")
        }
        let point = try ECPoint.generatorMultiplied(by: scalar, group: group).uncompressed()
        self.init(
            key: try EVPKey.p256(privateScalar: raw, publicPoint: point),
            publicKey: try P256PublicKey(validatedPoint: point)
        )
    }

    /// Imports a SEC1 `ECPrivateKey` (RFC 5915) DER encoding with the P-256 named curve.
    public init(sec1DERRepresentation der: [UInt8]) throws(CryptoError) {
        try self.init(decoding: der, as: .sec1, name: "SEC1 ECPrivateKey")
    }

    /// Imports an unencrypted PKCS#8 `PrivateKeyInfo` (RFC 5208) DER encoding of a P-256 key.
    public init(pkcs8DERRepresentation der: [UInt8]) throws(CryptoError) {
        try self.init(decoding: der, as: .pkcs8, name: "PKCS#8 PrivateKeyInfo")
    }

    private init(decoding der: [UInt8], as structure: EVPKey.DERStructure, name: String) throws(CryptoError) {
        guard let decoded = EVPKey.decode(structure, der: der) else {
            throw .invalidPrivateKey("not a DER \(name) holding a P-256 key")
        }
        var scalar = try decoded.privateScalar()
        defer { SecureMemory.zeroize(&scalar) }
        try self.init(rawRepresentation: scalar)
        if let embedded = try? decoded.publicPoint(), embedded != publicKey.x963Representation {
            throw .invalidPrivateKey("the \(name) public key does not match its private scalar")
        }
    }

    private init(key: EVPKey, publicKey: P256PublicKey) {
        self.key = key
        self.publicKey = publicKey
    }

    /// The raw 32-byte big-endian scalar. Secret: zeroize the copy when done (``SecureMemory/zeroize(_:)``).
    public func rawRepresentation() throws(CryptoError) -> [UInt8] {
        try key.privateScalar()
    }

    /// SEC1 `ECPrivateKey` DER (named curve, with the public key). Secret.
    public func sec1DERRepresentation() throws(CryptoError) -> [UInt8] {
        try key.encode(.sec1)
    }

    /// PKCS#8 `PrivateKeyInfo` DER, unencrypted. Secret.
    public func pkcs8DERRepresentation() throws(CryptoError) -> [UInt8] {
        try key.encode(.pkcs8)
    }

    /// ECDSA with SHA-256 over `message` (the message is hashed here), in Matter's raw r‖s form.
    public func signature(for message: [UInt8]) throws(CryptoError) -> P256Signature {
        let der = try key.signSHA256(message)
        return P256Signature(validatedRaw: try ECDSASignatureDER.raw(fromDER: der))
    }

    /// ECDH with `peer`: the 32-byte X coordinate of the shared point (what Matter's CASE uses as its secret).
    public func sharedSecret(with peer: P256PublicKey) throws(CryptoError) -> [UInt8] {
        try key.sharedSecret(with: peer.key)
    }

    /// Runs `body` with this key's `EVP_PKEY*` (a key pair), for sibling modules that call OpenSSL directly
    /// (certificate and CSR signing). The pointer is valid only inside `body` and must not be freed or stored.
    package func withUnsafeEVPPKey<R, E: Error>(_ body: (OpaquePointer) throws(E) -> R) throws(E) -> R {
        try key.withPointer(body)
    }
}
