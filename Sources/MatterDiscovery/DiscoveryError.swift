/// Why a DNS-SD operation failed.
public enum DiscoveryError: Error, Equatable, Sendable {
    /// Placeholder until the Avahi backend lands.
    case notImplemented
}
