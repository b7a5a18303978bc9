import Foundation
import Glibc
import MatterTestSupport
import Testing

/// `fleet --shard I/N` runs the identities `fleet codes` computes: a shard started on loopback prints the
/// rows `fleet codes` printed for it, and a controller commissions its devices by those codes.
@Suite("fleet --shard and fleet codes")
struct FleetShardTests {
    @Test("a started shard prints the computed rows and is commissioned with a computed passcode")
    func shardMatchesComputedCodes() async throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-shard")
        let base = TestPorts.freeUDP()
        let common = ["--seed", "4242", "--count", "3", "--type", "on-off-light", "--base-port", "\(base)"]
        let codes = try await ProcessRunner.runMatterEmu(["fleet", "codes", "--shards", "2", "--json"] + common)
        #expect(codes.exitCode == 0, "\(codes.stderr)")
        let computed = try #require(try codes.json()["devices"] as? [[String: Any]])
        #expect(computed.count == 6)
        let shardRows = computed.filter { $0["shard"] as? Int == 1 }
        #expect(shardRows.map { $0["globalIndex"] as? Int } == [3, 4, 5])
        #expect(Set(computed.compactMap { $0["passcode"] as? Int }).count == 6)

        let fleet = try RunningProcess(
            [
                ProcessRunner.matterEmu.path, "fleet", "--shard", "1/2", "--no-advertise", "--state-dir",
                temporary.path,
                "--json",
            ] + common)
        defer { _ = fleet.stop() }
        let started = try #require(
            await fleet.jsonLine(within: .seconds(60)) { $0["devices"] != nil }, "\(fleet.stderr)")
        let rows = try #require(started["devices"] as? [[String: Any]])
        #expect(rows.count == 3)
        for (row, expected) in zip(rows, shardRows) {
            #expect(NSDictionary(dictionary: row).isEqual(to: expected), "\(row) != \(expected)")
        }

        // Commission device 2 of the shard with its computed passcode at its computed port, then use it.
        let device = shardRows[2]
        let passcode = try #require(device["passcode"] as? Int)
        let port = try #require(device["port"] as? Int)
        let state = ["--state-dir", temporary.file("controller")]
        let paired = try await ProcessRunner.runMatterEmu(
            ["pairing", "already-discovered", "7", "\(passcode)", "127.0.0.1", "\(port)"] + state,
            limit: .seconds(180))
        #expect(paired.exitCode == 0, "\(paired.stderr)")
        let on = try await ProcessRunner.runMatterEmu(["onoff", "on", "7", "1"] + state, limit: .seconds(60))
        #expect(on.exitCode == 0, "\(on.stderr)")
        let serial = try await ProcessRunner.runMatterEmu(
            ["basicinformation", "read", "serial-number", "7", "0", "--json"] + state, limit: .seconds(60))
        #expect(serial.exitCode == 0, "\(serial.stderr)")
        #expect(try serial.json()["value"] as? String == device["serialNumber"] as? String)

        // Another shard's passcode is not this device's.
        let wrong = try #require(computed[2]["passcode"] as? Int)
        let refused = try await ProcessRunner.runMatterEmu(
            ["pairing", "already-discovered", "8", "\(wrong)", "127.0.0.1", "\(port)"] + state, limit: .seconds(180))
        #expect(refused.exitCode != 0)
    }

    @Test("a shard that does not exist, a seed that is not a number or a port layout without room: usage, exit 2")
    func badShardsAreUsageErrors() async throws {
        for (arguments, mention) in [
            (["fleet", "--count", "2", "--shard", "3/2"], "shard 3 does not exist in 2"),
            (["fleet", "--count", "2", "--shard", "0/0"], "N must be a whole number of shards"),
            (["fleet", "--count", "2", "--shard", "1"], "expects I/N"),
            (["fleet", "--count", "2", "--shard", "-1/2"], "I must be a whole number"),
            (["fleet", "--count", "2", "--shard", "0/2", "--seed", "x1"], "--seed expects a number"),
            (["fleet", "--count", "2", "--shard-ports", "same"], "--shard-ports needs --shard"),
            (["fleet", "codes", "--count", "2"], "--shards"),
            (["fleet", "codes", "--count", "2", "--shards", "2", "--seed", "seven"], "--seed expects a number"),
            (["fleet", "codes", "--count", "1000", "--shards", "100"], "no room for 100000 ports"),
            (["fleet", "codes", "--count", "2", "--shards", "2", "--shard", "2"], "shard 2 does not exist"),
            (["fleet", "codes", "--count", "2", "--shards", "2", "--type", "toaster"], "toaster"),
        ] {
            let result = try await ProcessRunner.runMatterEmu(arguments, limit: .seconds(60))
            #expect(result.exitCode == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(mention), "\(arguments): \(result.stderr)")
        }
    }

    @Test(
        "--shard hostname/N takes the shard from a StatefulSet pod's host name (a UTS namespace of its own)",
        .enabled(if: getuid() == 0, "needs root for unshare --uts"))
    func hostNameOrdinal() async throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-shard-host")
        let fleet = try RunningProcess([
            "unshare", "--uts", "sh", "-c", "hostname matter-emu-fleet-2 && exec \"$0\" \"$@\"",
            ProcessRunner.matterEmu.path, "fleet", "--shard", "hostname/3", "--count", "1", "--base-port", "0",
            "--no-advertise", "--state-dir", temporary.path, "--json",
        ])
        defer { _ = fleet.stop() }
        let started = try #require(
            await fleet.jsonLine(within: .seconds(60)) { $0["devices"] != nil }, "\(fleet.stderr)")
        let rows = try #require(started["devices"] as? [[String: Any]])
        #expect(rows.first?["shard"] as? Int == 2)
        #expect(rows.first?["globalIndex"] as? Int == 2)
    }
}
