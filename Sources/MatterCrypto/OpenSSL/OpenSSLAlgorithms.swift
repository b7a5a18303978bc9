internal import COpenSSL

/// Algorithm objects fetched once from OpenSSL's default provider.
///
/// OpenSSL 3 re-fetches an algorithm by name every time a legacy getter such as `EVP_sha256()` is used to
/// initialise a context; fetching once avoids that lookup on the per-message path. Fetched `EVP_MD`/`EVP_CIPHER`
/// objects are immutable and safe to share between threads (hence `@unchecked Sendable`); they are kept for the
/// life of the process and never freed.
final class OpenSSLAlgorithms: @unchecked Sendable {
    static let shared = OpenSSLAlgorithms()

    private let sha256Pointer: OpaquePointer?
    private let aes128CCMPointer: OpaquePointer?

    private init() {
        sha256Pointer = EVP_MD_fetch(nil, "SHA256", nil)
        aes128CCMPointer = EVP_CIPHER_fetch(nil, "AES-128-CCM", nil)
        // A failed fetch is reported when the algorithm is used; don't leave its entries on this thread's queue.
        if sha256Pointer == nil || aes128CCMPointer == nil { OpenSSLErrorQueue.clear() }
    }

    /// The SHA-256 `EVP_MD`.
    func sha256() throws(CryptoError) -> OpaquePointer {
        guard let sha256Pointer else {
            throw .openSSLFailure(function: "EVP_MD_fetch(SHA256)", reasons: ["SHA-256 is not available"])
        }
        return sha256Pointer
    }

    /// The AES-128-CCM `EVP_CIPHER`.
    func aes128CCM() throws(CryptoError) -> OpaquePointer {
        guard let aes128CCMPointer else {
            throw .openSSLFailure(function: "EVP_CIPHER_fetch(AES-128-CCM)", reasons: ["AES-128-CCM is not available"])
        }
        return aes128CCMPointer
    }
}
