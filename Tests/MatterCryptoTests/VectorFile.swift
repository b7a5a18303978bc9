import Foundation
import MatterCrypto
import Testing

/// Loads a JSON vector file from the test bundle's `Vectors` folder.
enum VectorFile {
    static func load<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors"),
            "missing vector file Vectors/\(name).json"
        )
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }
}

/// Hex text → bytes for vectors; a malformed string fails the test instead of trapping.
func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
    func value(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
    let digits = Array(text.utf8)
    try #require(digits.count % 2 == 0, "odd hex digit count in \(text)", sourceLocation: sourceLocation)
    var out: [UInt8] = []
    out.reserveCapacity(digits.count / 2)
    for index in stride(from: 0, to: digits.count, by: 2) {
        let high = try #require(value(digits[index]), "bad hex digit in \(text)", sourceLocation: sourceLocation)
        let low = try #require(value(digits[index + 1]), "bad hex digit in \(text)", sourceLocation: sourceLocation)
        out.append(high << 4 | low)
    }
    return out
}

/// Lower-case hex of `bytes`, for readable failure messages.
func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

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
