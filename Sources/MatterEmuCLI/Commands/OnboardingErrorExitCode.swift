import MatterOnboarding

/// A bad onboarding code or value is the user's input: usage exit code.
extension OnboardingError: ExitCodeProviding {
    var exitCode: ExitCode { .usage }
}
