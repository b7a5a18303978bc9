import Foundation
import Testing

/// The quick start run as a user runs it (`swift run HomeQuickStart STATE-DIR`): the built executable,
/// beside this test bundle, in a process of its own.
@Suite("The quick start")
struct QuickStartRunTests {
    @Test("it commissions the four devices, runs every sample without an error and exits 0")
    func run() throws {
        let directory = NSTemporaryDirectory() + "home-quick-start-run-\(UInt64.random(in: 0...UInt64.max))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("HomeQuickStart")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "\(executable.path) is not built")

        // Outputs go to files (never a full pipe); two minutes is a hang guard only.
        let outPath = directory + "/out"
        let errPath = directory + "/err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = [directory + "/state"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""

        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "stderr:\n\(stderr)")
        let lines = stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("Commissioned device IDs: ") }.count == 4, "\(stdout)")
        #expect(lines.filter { $0.hasPrefix("device ") && $0.hasSuffix(" in Living room") }.count == 4, "\(stdout)")
        #expect(lines.contains("onOffTrait supports toggle command"))
        #expect(lines.contains("onOffTrait supports onOff state"))
        #expect(lines.contains { $0.hasPrefix("onOffTrait supports startUpOnOff and it is nil") })
        #expect(lines.contains("group \"everything\" samples done"))
        #expect(lines.last == "HomeQuickStart: 4 devices commissioned and driven by the guides' samples")
        #expect(!lines.contains { $0.contains("failed") || $0.hasPrefix("Failed") }, "\(stdout)")
    }
}
