/// Cryptographically secure random bytes from OpenSSL's DRBG.
public enum SecureRandom {
    /// `count` random bytes.
    public static func bytes(count: Int) throws(CryptoError) -> [UInt8] {
        guard count >= 0 else { throw .invalidParameter("random byte count must not be negative, got \(count)") }
        return count == 0 ? [] : try OpenSSLSymmetric.randomBytes(count)
    }

    /// A uniformly random integer of type `T` (for session IDs, message counters, exchange IDs).
    public static func value<T: FixedWidthInteger & UnsignedInteger>(_: T.Type = T.self) throws(CryptoError) -> T {
        let raw = try bytes(count: T.bitWidth / 8)
        return raw.reduce(T.zero) { ($0 << 8) | T($1) }
    }
}
