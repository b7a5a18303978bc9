/// Why commissioning or control of a node failed.
public enum CommissioningError: Error, Equatable, Sendable {
    /// Placeholder until the controller lands.
    case notImplemented
}
