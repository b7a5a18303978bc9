/// Why an onboarding payload could not be parsed or generated.
public enum OnboardingError: Error, Equatable, Sendable {
    /// Placeholder until the onboarding codecs land.
    case notImplemented
}
