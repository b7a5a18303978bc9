/// Why a PASE or CASE handshake failed.
public enum SecureChannelError: Error, Equatable, Sendable {
    /// Placeholder until PASE and CASE land.
    case notImplemented
}
