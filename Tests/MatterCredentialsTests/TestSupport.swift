import Foundation
import MatterCredentials
import MatterTestSupport
import Testing

/// Expects `body` to throw a `CredentialsError` accepted by `matches`.
func expectCredentialsError<R>(
    _ description: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> R,
    matches: (CredentialsError) -> Bool
) {
    do {
        _ = try body()
        Issue.record("expected \(description), but the call succeeded", sourceLocation: sourceLocation)
    } catch let error as CredentialsError {
        #expect(matches(error), "expected \(description), got \(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(description), got \(error)", sourceLocation: sourceLocation)
    }
}

/// Expects device attestation to fail with the SDK result `code`.
func expectAttestationFailure<R>(
    _ code: Int,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> R
) {
    expectCredentialsError("attestation failure \(code)", sourceLocation: sourceLocation, body) { error in
        if case .attestation(let failure) = error { return failure.code == code }
        return false
    }
}
