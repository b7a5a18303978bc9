/// Why a certificate, CSR, key or attestation element was rejected.
public enum CredentialsError: Error, Equatable, Sendable {
    /// Placeholder until the credentials module lands.
    case notImplemented
}
