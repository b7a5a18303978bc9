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
        let process = try RunningProcess([
            ProcessRunner.matterEmu.path, "device", "--type", "on-off-light", "--secured-device-port", "0",
            "--no-advertise", "--state-dir", directory, "--stats-interval", "0.1", "--json",
        ])
        // The second line: the first one is the onboarding document.
        process.stdoutLine(within: .seconds(60)) { _ in process.lines.count >= 2 }
        let ended = process.stop()
        let lines = process.jsonLines
        #expect(ended?.succeeded == true, "\(String(describing: ended)): \(process.stderr)")
        #expect(lines.first?["event"] as? String == "started")
        let periodic = try #require(lines.dropFirst().first)
        let last = lines.count > 2 ? lines.last : nil
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
