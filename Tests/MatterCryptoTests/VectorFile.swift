import Foundation
import MatterCrypto
import MatterTestSupport
import Testing

/// The case of a `CryptoError`, without its payload.
enum CryptoErrorKind: Equatable {
    case invalidLength, invalidParameter, invalidPrivateKey, invalidPublicKey, invalidPoint, invalidSignature
    case authenticationFailed, confirmationFailed, invalidState, openSSLFailure

    init(_ error: CryptoError) {
        switch error {
        case .invalidLength: self = .invalidLength
        case .invalidParameter: self = .invalidParameter
        case .invalidPrivateKey: self = .invalidPrivateKey
        case .invalidPublicKey: self = .invalidPublicKey
        case .invalidPoint: self = .invalidPoint
        case .invalidSignature: self = .invalidSignature
        case .authenticationFailed: self = .authenticationFailed
        case .confirmationFailed: self = .confirmationFailed
        case .invalidState: self = .invalidState
        case .openSSLFailure: self = .openSSLFailure
        }
    }
}

/// Expects `body` to throw a `CryptoError` of the given kind.
func expectCryptoError<R>(
    _ kind: CryptoErrorKind,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> R
) {
    do {
        _ = try body()
        Issue.record("expected CryptoError.\(kind), but the call succeeded", sourceLocation: sourceLocation)
    } catch let error as CryptoError {
        #expect(CryptoErrorKind(error) == kind, "got \(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected CryptoError.\(kind), got \(error)", sourceLocation: sourceLocation)
    }
}
