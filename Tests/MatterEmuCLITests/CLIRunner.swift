import Foundation

/// Runs the built `matter-emu` binary as a user would and captures what it prints.
struct CLIResult {
    let exitCode: Int32
    let stdout: String
    let stderr: String
}

enum CLIRunner {
    /// `.build/<triple>/debug/matter-emu`, beside the test bundle.
    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("matter-emu")
    }

    static func run(_ arguments: [String]) throws -> CLIResult {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes before waiting, so a large output cannot fill a pipe and block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIResult(
            exitCode: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Parses stdout as a JSON object.
    static func json(_ result: CLIResult) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        guard let dictionary = object as? [String: Any] else { throw CLITestError.notAnObject(result.stdout) }
        return dictionary
    }
}

enum CLITestError: Error {
    case notAnObject(String)
}
