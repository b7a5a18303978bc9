internal import COpenSSL

/// Owns one `EVP_PKEY*` holding a P-256 key (key pair or public only); freed in `deinit`.
///
/// Immutable after creation; OpenSSL 3 allows concurrent read-only use of an `EVP_PKEY` (signing, verifying,
/// deriving each create their own operation context), hence `@unchecked Sendable`.
final class EVPKey: @unchecked Sendable {
    private let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    private init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { EVP_PKEY_free(pointer) }

    /// Runs `body` with the raw pointer; `self` is kept alive for the whole call. The pointer must not escape.
    func withPointer<R, E: Error>(_ body: (OpaquePointer) throws(E) -> R) throws(E) -> R {
        defer { withExtendedLifetime(self) {} }
        return try body(pointer)
    }

    // MARK: Creation

    /// A fresh random P-256 key pair. (`EVP_EC_gen` is a macro and `EVP_PKEY_Q_keygen` variadic; neither is
    /// callable from Swift, so the generation context is set up by hand.)
    static func generate() throws(CryptoError) -> EVPKey {
        let ctx = try unwrap(EVP_PKEY_CTX_new_from_name(nil, "EC", nil), "EVP_PKEY_CTX_new_from_name")
        defer { EVP_PKEY_CTX_free(ctx) }
        try check(EVP_PKEY_keygen_init(ctx), "EVP_PKEY_keygen_init")
        try check(EVP_PKEY_CTX_set_group_name(ctx, "prime256v1"), "EVP_PKEY_CTX_set_group_name")
        var out: OpaquePointer?
        try check(EVP_PKEY_generate(ctx, &out), "EVP_PKEY_generate")
        return EVPKey(taking: try unwrap(out, "EVP_PKEY_generate"))
    }

    /// A key built from an already validated raw scalar (nil for a public-only key) and its 65-byte public point.
    static func p256(privateScalar: [UInt8]?, publicPoint: [UInt8]) throws(CryptoError) -> EVPKey {
        let created = publicPoint.withUnsafeBufferPointer { pub in
            if let privateScalar {
                return privateScalar.withUnsafeBufferPointer { priv in
                    COpenSSL_P256_fromdata(priv.baseAddress, priv.count, pub.baseAddress, pub.count)
                }
            }
            return COpenSSL_P256_fromdata(nil, 0, pub.baseAddress, pub.count)
        }
        return EVPKey(taking: try unwrap(created, "EVP_PKEY_fromdata"))
    }

    /// DER structures understood by ``decode(_:der:)`` and ``encode(_:)``.
    enum DERStructure {
        case sec1, pkcs8, subjectPublicKeyInfo

        var shimValue: Int32 {
            switch self {
            case .sec1: Int32(COpenSSL_EC_DER_SEC1)
            case .pkcs8: Int32(COpenSSL_EC_DER_PKCS8)
            case .subjectPublicKeyInfo: Int32(COpenSSL_EC_DER_SPKI)
            }
        }

        /// OpenSSL 3.0's decoder treats the requested structure as a hint and also accepts the other private-key
        /// form, so the outer shape is checked here: both private forms are `SEQUENCE { INTEGER version, … }`;
        /// the next element is an OCTET STRING in SEC1 (`privateKey`) and a SEQUENCE in PKCS#8
        /// (`privateKeyAlgorithm`). SubjectPublicKeyInfo starts with its AlgorithmIdentifier SEQUENCE.
        func matchesOuterShape(_ der: [UInt8]) -> Bool {
            var reader = DERPeek(der)
            guard reader.enterSequence() else { return false }
            switch self {
            case .sec1: return reader.skip(tag: 0x02) && reader.peekTag() == 0x04
            case .pkcs8: return reader.skip(tag: 0x02) && reader.peekTag() == 0x30
            case .subjectPublicKeyInfo: return reader.peekTag() == 0x30
            }
        }
    }

    /// Decodes one DER EC key. Returns nil when the bytes are not such a key, are followed by trailing bytes,
    /// or hold a curve other than P-256 (the error queue is cleared: malformed input is an expected outcome).
    static func decode(_ structure: DERStructure, der: [UInt8]) -> EVPKey? {
        guard structure.matchesOuterShape(der) else { return nil }
        var remaining = 0
        let decoded = der.withUnsafeBufferPointer { buffer in
            COpenSSL_EC_decode_DER(structure.shimValue, buffer.baseAddress, buffer.count, &remaining)
        }
        guard let decoded else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        let key = EVPKey(taking: decoded)
        guard remaining == 0, key.isP256 else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return key
    }

    /// Wraps a borrowed `EVP_PKEY*` (for example `X509_get0_pubkey`) by taking an extra reference.
    static func retaining(_ borrowed: OpaquePointer) throws(CryptoError) -> EVPKey {
        try check(EVP_PKEY_up_ref(borrowed), "EVP_PKEY_up_ref")
        return EVPKey(taking: borrowed)
    }

    // MARK: Inspection and export

    /// Whether this is an EC key on P-256 (`prime256v1`).
    var isP256: Bool {
        guard EVP_PKEY_is_a(pointer, "EC") == 1 else { return false }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        let rc = name.withUnsafeMutableBufferPointer {
            EVP_PKEY_get_utf8_string_param(pointer, COpenSSL_PKEY_PARAM_GROUP_NAME(), $0.baseAddress, $0.count, &length)
        }
        guard rc == 1 else {
            OpenSSLErrorQueue.clear()
            return false
        }
        let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return group == "prime256v1"
    }

    /// The private scalar, 32 bytes big-endian.
    func privateScalar() throws(CryptoError) -> [UInt8] {
        var bn: OpaquePointer?
        try check(EVP_PKEY_get_bn_param(pointer, COpenSSL_PKEY_PARAM_PRIV_KEY(), &bn), "EVP_PKEY_get_bn_param(priv)")
        defer { BN_clear_free(bn) }
        var out = [UInt8](repeating: 0, count: 32)
        let written = out.withUnsafeMutableBufferPointer { BN_bn2binpad(bn, $0.baseAddress, 32) }
        guard written == 32 else { throw OpenSSLErrorQueue.failure("BN_bn2binpad") }
        return out
    }

    /// The public point as OpenSSL stores it (uncompressed unless the key was imported otherwise).
    func publicPoint() throws(CryptoError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 133)
        var length = 0
        let rc = out.withUnsafeMutableBufferPointer {
            EVP_PKEY_get_octet_string_param(pointer, COpenSSL_PKEY_PARAM_PUB_KEY(), $0.baseAddress, $0.count, &length)
        }
        try check(rc, "EVP_PKEY_get_octet_string_param(pub)")
        return Array(out.prefix(length))
    }

    /// DER encoding in the given structure.
    func encode(_ structure: DERStructure) throws(CryptoError) -> [UInt8] {
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        let rc = COpenSSL_EC_encode_DER(pointer, structure.shimValue, &buffer, &length)
        defer {
            if let buffer {
                OPENSSL_cleanse(buffer, length)
                COpenSSL_free(buffer)
            }
        }
        guard rc == 1, let buffer else { throw OpenSSLErrorQueue.failure("OSSL_ENCODER_to_data") }
        return Array(UnsafeBufferPointer(start: buffer, count: length))
    }

    // MARK: Operations

    /// ECDSA with SHA-256 over `message`; returns OpenSSL's DER signature.
    func signSHA256(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        let md = try OpenSSLAlgorithms.shared.sha256()
        let ctx = try unwrap(EVP_MD_CTX_new(), "EVP_MD_CTX_new")
        defer { EVP_MD_CTX_free(ctx) }
        try check(EVP_DigestSignInit(ctx, nil, md, nil, pointer), "EVP_DigestSignInit")
        var length = 0
        let sized = message.withUnsafeBufferPointer { EVP_DigestSign(ctx, nil, &length, $0.baseAddress, $0.count) }
        try check(sized, "EVP_DigestSign(size)")
        var der = [UInt8](repeating: 0, count: length)
        let signed = message.withUnsafeBufferPointer { input in
            der.withUnsafeMutableBufferPointer {
                EVP_DigestSign(ctx, $0.baseAddress, &length, input.baseAddress, input.count)
            }
        }
        try check(signed, "EVP_DigestSign")
        return Array(der.prefix(length))
    }

    /// Verifies a DER ECDSA-SHA256 signature. Any failure, including an internal one, is `false` (fail closed);
    /// the error queue is cleared.
    func verifySHA256(der: [UInt8], message: [UInt8]) -> Bool {
        guard let md = try? OpenSSLAlgorithms.shared.sha256(), let ctx = EVP_MD_CTX_new() else {
            OpenSSLErrorQueue.clear()
            return false
        }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestVerifyInit(ctx, nil, md, nil, pointer) == 1 else {
            OpenSSLErrorQueue.clear()
            return false
        }
        let rc = der.withUnsafeBufferPointer { signature in
            message.withUnsafeBufferPointer { input in
                EVP_DigestVerify(ctx, signature.baseAddress, signature.count, input.baseAddress, input.count)
            }
        }
        guard rc == 1 else {
            OpenSSLErrorQueue.clear()
            return false
        }
        return true
    }

    /// ECDH: the X coordinate of `self.private · peer.public`.
    func sharedSecret(with peer: EVPKey) throws(CryptoError) -> [UInt8] {
        let ctx = try unwrap(EVP_PKEY_CTX_new(pointer, nil), "EVP_PKEY_CTX_new")
        defer { EVP_PKEY_CTX_free(ctx) }
        try check(EVP_PKEY_derive_init(ctx), "EVP_PKEY_derive_init")
        try peer.withPointer { (peerPointer) throws(CryptoError) in
            try check(EVP_PKEY_derive_set_peer(ctx, peerPointer), "EVP_PKEY_derive_set_peer")
        }
        var length = 0
        try check(EVP_PKEY_derive(ctx, nil, &length), "EVP_PKEY_derive(size)")
        var secret = [UInt8](repeating: 0, count: length)
        let rc = secret.withUnsafeMutableBufferPointer { EVP_PKEY_derive(ctx, $0.baseAddress, &length) }
        try check(rc, "EVP_PKEY_derive")
        return Array(secret.prefix(length))
    }
}

/// Just enough DER reading to tell key structures apart (tag and length of the first few elements).
private struct DERPeek {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func peekTag() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    /// Steps into a SEQUENCE that spans the rest of the input.
    mutating func enterSequence() -> Bool {
        guard peekTag() == 0x30, let length = readHeader(), offset + length == bytes.count else { return false }
        return true
    }

    /// Skips one element with the given tag.
    mutating func skip(tag: UInt8) -> Bool {
        guard peekTag() == tag, let length = readHeader(), offset + length <= bytes.count else { return false }
        offset += length
        return true
    }

    /// Reads a tag and a definite length (short or long form, at most 4 length bytes); returns the length.
    private mutating func readHeader() -> Int? {
        guard offset + 2 <= bytes.count else { return nil }
        let first = bytes[offset + 1]
        offset += 2
        guard first & 0x80 != 0 else { return Int(first) }
        let count = Int(first & 0x7F)
        guard (1...4).contains(count), offset + count <= bytes.count else { return nil }
        var length = 0
        for byte in bytes[offset..<(offset + count)] { length = length << 8 | Int(byte) }
        offset += count
        return length
    }
}
