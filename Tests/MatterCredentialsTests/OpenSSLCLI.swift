import Foundation
import MatterCredentials
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

/// A fresh temporary directory, removed by `cleanUp()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("matter-credentials-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func write(_ bytes: [UInt8], _ name: String) throws {
        try Data(bytes).write(to: url.appendingPathComponent(name))
    }

    func write(_ text: String, _ name: String) throws {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }

    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}
