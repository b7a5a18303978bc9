import Foundation
import MatterCredentials
import Testing

/// Loads a JSON vector file from the test bundle's `Vectors` folder.
enum VectorFile {
    static func load<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors"),
            "missing vector file Vectors/\(name).json")
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }
}

/// Hex text → bytes; a malformed string fails the test instead of trapping.
func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
    func value(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
    let digits = Array(text.utf8).filter { $0 != UInt8(ascii: " ") }
    try #require(digits.count % 2 == 0, "odd hex digit count in \(text)", sourceLocation: sourceLocation)
    var out: [UInt8] = []
    for index in stride(from: 0, to: digits.count, by: 2) {
        let high = try #require(value(digits[index]), "bad hex digit in \(text)", sourceLocation: sourceLocation)
        let low = try #require(value(digits[index + 1]), "bad hex digit in \(text)", sourceLocation: sourceLocation)
        out.append(high << 4 | low)
    }
    return out
}

func hexString(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

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

/// The repository root (three levels above this file: Tests/MatterCredentialsTests/TestSupport.swift).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
