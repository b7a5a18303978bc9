package import Foundation

/// Where the repository's test inputs are, found from this file's path (the tests run from a
/// checkout: `Tests/MatterTestSupport/TestPaths.swift` is three levels below its root).
package enum TestPaths {
    /// The repository's root directory.
    package static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The committed test PKI (`fixtures/pki`: PAA, PAIs, DACs and CDs of every device type).
    package static var pkiDirectory: String { repositoryRoot.appendingPathComponent("fixtures/pki").path }
}

/// Loads JSON test vectors from a test bundle's `Vectors` folder.
package enum VectorFile {
    /// Decodes `Vectors/<name>.json` of `bundle` (a test target's `Bundle.module`).
    package static func load<T: Decodable>(_ name: String, as type: T.Type = T.self, in bundle: Bundle) throws -> T {
        guard let url = bundle.url(forResource: name, withExtension: "json", subdirectory: "Vectors") else {
            throw TestSupportError.missingFile("Vectors/\(name).json")
        }
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }
}

/// What the test helpers throw.
package enum TestSupportError: Error, CustomStringConvertible {
    /// A file the test needs is not there.
    case missingFile(String)
    /// A command's stdout is not the JSON object it should be.
    case notJSONObject(String)
    /// A process did not do what was waited for in time (a hang guard, not a timing check).
    case timedOut(String)
    /// A process to run was given no executable.
    case emptyCommand
    /// A process could not be started.
    case spawnFailed(String)

    package var description: String {
        switch self {
        case .missingFile(let name): "missing test file \(name)"
        case .notJSONObject(let text): "stdout is not a JSON object: \(text.prefix(400))"
        case .timedOut(let what): "timed out: \(what)"
        case .emptyCommand: "no command to run"
        case .spawnFailed(let what): "could not start a process: \(what)"
        }
    }
}
