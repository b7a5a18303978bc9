/// Why an interaction failed.
public enum InteractionError: Error, Equatable, Sendable {
    /// Placeholder until the interaction model lands.
    case notImplemented
}
