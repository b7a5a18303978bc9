internal import COpenSSL

/// Owns one `EVP_MD_CTX` running SHA-256; freed in `deinit`.
///
/// Backs the copy-on-write storage of ``SHA256``: it is mutated only while uniquely referenced, and otherwise
/// only read (copied), which is why it may be `@unchecked Sendable`.
final class DigestContext: @unchecked Sendable {
    private let pointer: OpaquePointer

    init() throws(CryptoError) {
        let md = try OpenSSLAlgorithms.shared.sha256()
        pointer = try unwrap(EVP_MD_CTX_new(), "EVP_MD_CTX_new")
        guard EVP_DigestInit_ex(pointer, md, nil) == 1 else {
            EVP_MD_CTX_free(pointer)
            throw OpenSSLErrorQueue.failure("EVP_DigestInit_ex")
        }
    }

    /// A new context in the same state as `other`.
    init(copying other: DigestContext) throws(CryptoError) {
        pointer = try unwrap(EVP_MD_CTX_new(), "EVP_MD_CTX_new")
        let rc = withExtendedLifetime(other) { EVP_MD_CTX_copy_ex(pointer, other.pointer) }
        guard rc == 1 else {
            EVP_MD_CTX_free(pointer)
            throw OpenSSLErrorQueue.failure("EVP_MD_CTX_copy_ex")
        }
    }

    deinit { EVP_MD_CTX_free(pointer) }

    func update(_ data: [UInt8]) throws(CryptoError) {
        let rc = data.withUnsafeBytes { EVP_DigestUpdate(pointer, $0.baseAddress, $0.count) }
        try check(rc, "EVP_DigestUpdate")
    }

    /// Finishes *this* context (it cannot be updated afterwards) and returns the 32-byte digest.
    func finish() throws(CryptoError) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        try check(EVP_DigestFinal_ex(pointer, &digest, &length), "EVP_DigestFinal_ex")
        guard length == 32 else {
            throw .openSSLFailure(function: "EVP_DigestFinal_ex", reasons: ["digest length \(length)"])
        }
        return digest
    }

    /// One-shot SHA-256.
    static func sha256(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        let md = try OpenSSLAlgorithms.shared.sha256()
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let rc = data.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &digest, &length, md, nil) }
        try check(rc, "EVP_Digest")
        return digest
    }
}
