/// AES-128-CCM with Matter's parameters: 16-byte key, 13-byte nonce, 16-byte tag appended to the ciphertext.
///
/// ``open(_:key:nonce:authenticating:)`` throws ``CryptoError/authenticationFailed`` when the tag does not verify
/// (tampering, wrong key or nonce, or a sealed message shorter than a tag); no plaintext is returned in that case.
public enum AESCCM128 {
    /// Key size in bytes.
    public static let keyByteCount = 16
    /// Nonce size in bytes (Matter's message nonce: security flags, counter, source node ID).
    public static let nonceByteCount = 13
    /// Tag size in bytes.
    public static let tagByteCount = 16
    /// The longest plaintext a 13-byte nonce allows (CCM's length field is then 2 bytes).
    public static let maximumPlaintextByteCount = 0xFFFF

    /// Encrypts `plaintext` and authenticates it together with `aad`; returns ciphertext ‖ 16-byte tag.
    public static func seal(
        _ plaintext: [UInt8],
        key: [UInt8],
        nonce: [UInt8],
        authenticating aad: [UInt8] = []
    ) throws(CryptoError) -> [UInt8] {
        try validate(key: key, nonce: nonce, aad: aad)
        guard plaintext.count <= maximumPlaintextByteCount else {
            throw .invalidParameter(
                "AES-CCM plaintext longer than \(maximumPlaintextByteCount) bytes (\(plaintext.count))")
        }
        return try OpenSSLAESCCM.seal(key: key, nonce: nonce, aad: aad, plaintext: plaintext, tagLength: tagByteCount)
    }

    /// Verifies and decrypts ciphertext ‖ tag. Throws ``CryptoError/authenticationFailed`` if the tag is wrong.
    public static func open(
        _ sealed: [UInt8],
        key: [UInt8],
        nonce: [UInt8],
        authenticating aad: [UInt8] = []
    ) throws(CryptoError) -> [UInt8] {
        try validate(key: key, nonce: nonce, aad: aad)
        guard sealed.count >= tagByteCount, sealed.count - tagByteCount <= maximumPlaintextByteCount else {
            throw .authenticationFailed
        }
        return try OpenSSLAESCCM.open(key: key, nonce: nonce, aad: aad, sealed: sealed, tagLength: tagByteCount)
    }

    private static func validate(key: [UInt8], nonce: [UInt8], aad: [UInt8]) throws(CryptoError) {
        guard key.count == keyByteCount else {
            throw .invalidLength(what: "AES-CCM key", expected: keyByteCount, actual: key.count)
        }
        guard nonce.count == nonceByteCount else {
            throw .invalidLength(what: "AES-CCM nonce", expected: nonceByteCount, actual: nonce.count)
        }
        guard aad.count <= Int(Int32.max) else { throw .invalidParameter("AES-CCM associated data is too long") }
    }
}
