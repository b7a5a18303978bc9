/// HMAC-SHA256 (RFC 2104).
public enum HMACSHA256 {
    /// MAC size in bytes.
    public static let byteCount = 32

    /// The 32-byte HMAC-SHA256 of `message` under `key` (any key length; long keys are hashed first).
    public static func authenticationCode(for message: [UInt8], key: [UInt8]) throws(CryptoError) -> [UInt8] {
        try OpenSSLSymmetric.hmacSHA256(key: key, message: message)
    }

    /// Whether `code` is the HMAC of `message` under `key`, compared in constant time.
    public static func isValidAuthenticationCode(_ code: [UInt8], for message: [UInt8], key: [UInt8])
        throws(CryptoError) -> Bool
    {
        SecureMemory.constantTimeEquals(try authenticationCode(for: message, key: key), code)
    }
}
