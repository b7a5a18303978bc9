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

    /// Runs `openssl <arguments>` in `directory`, returning its exit status and combined output.
    static func run(_ arguments: [String], in directory: URL) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}
