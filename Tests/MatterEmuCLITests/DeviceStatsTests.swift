import Foundation
import MatterTestSupport
import Testing

/// `matter-emu device --stats-interval`: a line of counters every interval, a final one on SIGTERM.
@Suite("matter-emu device --stats-interval")
struct DeviceStatsTests {
    @Test(arguments: ["0", "-1", "soon"])
    func aBadIntervalIsAUsageError(interval: String) throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let directory = temporary.path
        let result = try ProcessRunner.runMatterEmu([
            "device", "--stats-interval", interval, "--state-dir", directory,
            "--no-advertise",
        ])
        #expect(result.exitCode == 2, "\(result.stderr)")
        #expect(result.stderr.contains("--stats-interval"), "\(result.stderr)")
    }

    @Test func statsLinesComeEveryIntervalAndOnceMoreOnSIGTERM() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let directory = temporary.path
        let process = Process()
        process.executableURL = ProcessRunner.matterEmu
        process.arguments = [
            "device", "--type", "on-off-light", "--secured-device-port", "0", "--no-advertise",
            "--state-dir", directory, "--stats-interval", "0.1", "--json",
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let reader = out.fileHandleForReading
        func nextLine() -> [String: Any]? {
            var line = Data()
            while true {
                let byte = reader.readData(ofLength: 1)
                if byte.isEmpty { return nil }
                if byte == Data([0x0A]) { break }
                line.append(byte)
            }
            return (try? JSONSerialization.jsonObject(with: line)) as? [String: Any]
        }
        #expect(nextLine()?["event"] as? String == "started")
        let periodic = try #require(nextLine())
        process.terminate()
        var last: [String: Any]?
        while let line = nextLine() { last = line }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(periodic["event"] as? String == "stats")
        #expect(periodic["final"] as? Bool == false)
        #expect((periodic["rssKB"] as? Int ?? 0) > 0)
        for counter in [
            "received", "droppedUndecodable", "droppedByHandler", "paseRefusedWindowClosed",
            "unsecuredSessions", "closingExchanges",
        ] {
            #expect(periodic[counter] as? Int == 0, "\(counter)")
        }
        let final = try #require(last)
        #expect(final["event"] as? String == "stats")
        #expect(final["final"] as? Bool == true)
    }
}
