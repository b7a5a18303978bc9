import Foundation
import MatterTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `matter-emu fleet` under a low RLIMIT_NOFILE (set by a shell's `ulimit` before exec): a low soft
/// limit is raised to the hard one; a hard limit below the fleet's need is refused before any device.
@Suite("matter-emu fleet: file descriptor limit")
struct FleetDescriptorLimitTests {
    /// Devices in each run: more sockets than the soft limit of `soft` allows.
    static let count = 150
    static let soft = 128

    /// `matter-emu fleet --count 150` after `ulimit <limit>` in a shell.
    static func fleet(_ limit: String, directory: String) throws -> RunningProcess {
        try RunningProcess(
            [
                "/bin/sh", "-c", "ulimit \(limit) && exec \"$0\" \"$@\"", ProcessRunner.matterEmu.path, "fleet",
                "--count",
                String(count), "--type", "on-off-light", "--base-port", "0", "--no-advertise", "--state-dir",
                directory, "--json",
            ])
    }

    @Test("a soft limit below the fleet's sockets is raised: 150 devices start under a soft limit of 128")
    func lowSoftLimitIsRaised() async throws {
        var limit = rlimit()
        try #require(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        try #require(limit.rlim_max >= 300, "the hard limit leaves room for the fleet")
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let child = try Self.fleet("-Sn \(Self.soft)", directory: temporary.path)
        let line = await child.stdoutLine(within: .seconds(120)) { $0.hasPrefix("{") }
        _ = await child.stop()
        let document = try #require(
            line.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] },
            "stdout: \(child.stdout)\nstderr: \(child.stderr)")
        let devices = try #require(document["devices"] as? [[String: Any]])
        #expect(devices.count == Self.count)
        #expect(Set(devices.compactMap { $0["port"] as? Int }).count == Self.count)
    }

    @Test("a hard limit below the fleet's need exits 1 with the numbers, before any device touches the state file")
    func lowHardLimitIsRefused() async throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let child = try Self.fleet("-n \(Self.soft)", directory: temporary.path)
        let termination = await child.exit(within: .seconds(60))
        #expect(termination?.status == 1 && termination?.bySignal == false, "\(child.stderr)")
        // --json: the error is the one document on stdout, and no device was listed.
        let document = try JSONSerialization.jsonObject(with: Data(child.stdout.utf8)) as? [String: Any]
        let message = try #require((document?["error"] as? [String: Any])?["message"] as? String, "\(child.stdout)")
        // One socket per device and the fleet's reserve of 64 (Fleet.descriptorReserve).
        #expect(message.contains("\(Self.count + 64) file descriptors are needed"), "\(message)")
        #expect(message.contains("at most \(Self.soft)"), "\(message)")
        #expect(document?["devices"] == nil)
        #expect(!FileManager.default.fileExists(atPath: temporary.path + "/fleet.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: temporary.path + "/fleet.sqlite.lock"))
    }
}
