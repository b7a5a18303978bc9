/// SHA-256, one-shot or incremental.
///
/// The incremental form is a value type: copying a `SHA256` forks the running state, and ``finalize()`` does
/// not consume it, so a transcript can be read at several points (CASE hashes Sigma1, then Sigma1‖Sigma2, …).
///
/// ```swift
/// var transcript = try SHA256()
/// try transcript.update(sigma1)
/// let afterSigma1 = try transcript.finalize()
/// try transcript.update(sigma2)
/// ```
public struct SHA256: Sendable {
    /// Digest size in bytes.
    public static let byteCount = 32

    private var context: DigestContext

    /// Starts an empty hash.
    public init() throws(CryptoError) {
        context = try DigestContext()
    }

    /// The SHA-256 digest of `data`.
    public static func hash(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        try DigestContext.sha256(data)
    }

    /// Appends `data` to the hashed message.
    public mutating func update(_ data: [UInt8]) throws(CryptoError) {
        if !isKnownUniquelyReferenced(&context) { context = try DigestContext(copying: context) }
        try context.update(data)
    }

    /// The digest of everything appended so far. The running state is unchanged: more data may follow.
    public func finalize() throws(CryptoError) -> [UInt8] {
        try DigestContext(copying: context).finish()
    }
}
