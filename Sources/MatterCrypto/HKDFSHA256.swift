/// HKDF-SHA256 (RFC 5869): extract-then-expand.
public enum HKDFSHA256 {
    /// The largest output RFC 5869 allows for SHA-256: 255 blocks of 32 bytes.
    public static let maximumOutputByteCount = 255 * 32

    /// Derives `outputByteCount` bytes from `inputKeyMaterial`.
    ///
    /// An empty `salt` means "no salt" (RFC 5869: 32 zero bytes), which is what Matter's PASE and resumption
    /// derivations use.
    public static func deriveKey(
        inputKeyMaterial: [UInt8],
        salt: [UInt8],
        info: [UInt8],
        outputByteCount: Int
    ) throws(CryptoError) -> [UInt8] {
        guard (1...maximumOutputByteCount).contains(outputByteCount) else {
            throw .invalidParameter(
                "HKDF-SHA256 output length must be 1...\(maximumOutputByteCount), got \(outputByteCount)")
        }
        return try OpenSSLSymmetric.hkdfSHA256(ikm: inputKeyMaterial, salt: salt, info: info, length: outputByteCount)
    }
}
