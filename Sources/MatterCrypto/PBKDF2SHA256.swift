/// PBKDF2 with HMAC-SHA256 as the PRF (RFC 8018 §5.2).
public enum PBKDF2SHA256 {
    /// Derives `outputByteCount` bytes from `password` and `salt` with `iterations` rounds.
    ///
    /// No policy on the iteration count or salt size is applied here; Matter's PASE limits are enforced by
    /// ``Spake2Plus``.
    public static func deriveKey(
        password: [UInt8],
        salt: [UInt8],
        iterations: Int,
        outputByteCount: Int
    ) throws(CryptoError) -> [UInt8] {
        guard iterations >= 1, let rounds = Int32(exactly: iterations) else {
            throw .invalidParameter("PBKDF2 iteration count must be 1...\(Int32.max), got \(iterations)")
        }
        guard outputByteCount >= 1, let length = Int32(exactly: outputByteCount) else {
            throw .invalidParameter("PBKDF2 output length must be at least 1 byte, got \(outputByteCount)")
        }
        return try OpenSSLSymmetric.pbkdf2SHA256(password: password, salt: salt, iterations: rounds, length: length)
    }
}
