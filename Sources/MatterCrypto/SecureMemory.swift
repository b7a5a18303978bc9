/// Helpers for handling secret bytes.
public enum SecureMemory {
    /// Whether `a` and `b` are equal, in time that depends only on their length (for MACs and confirmation
    /// values). Arrays of different lengths are unequal; lengths are not treated as secret.
    public static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        OpenSSLSymmetric.constantTimeEquals(a, b)
    }

    /// Overwrites `bytes` with zeros in a way the optimiser cannot remove (`OPENSSL_cleanse`).
    ///
    /// Arrays are copy-on-write: only the storage `bytes` owns is cleared. Copies made earlier (or storage
    /// shared with another array) keep their contents, so call this on the last holder of a secret.
    public static func zeroize(_ bytes: inout [UInt8]) {
        OpenSSLSymmetric.cleanse(&bytes)
    }
}
