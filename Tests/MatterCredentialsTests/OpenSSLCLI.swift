import Foundation
import MatterCredentials
import MatterTestSupport
import Testing

/// Runs the `openssl` command-line tool, for independent checks of what this module produces.
enum OpenSSLCLI {
    static let path = "/usr/bin/openssl"
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: path) }

    struct Result {
        let status: Int32
        let output: String
    }

    /// Runs `openssl <arguments>` in `directory` (a hang guard of two minutes), returning its exit code
    /// and its output (stdout, then stderr).
    static func run(_ arguments: [String], in directory: URL) throws -> Result {
        let result = try ProcessRunner.run([path] + arguments, workingDirectory: directory.path, limit: .seconds(120))
        return Result(status: result.exitCode, output: result.stdout + result.stderr)
    }
}
