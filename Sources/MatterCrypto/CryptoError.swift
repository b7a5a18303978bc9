/// Why a cryptographic operation failed.
public enum CryptoError: Error, Equatable, Sendable {
    /// Placeholder until the OpenSSL backend lands.
    case notImplemented
}
