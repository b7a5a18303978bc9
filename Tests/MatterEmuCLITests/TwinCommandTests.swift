import Foundation
import MatterTestSupport
import Testing

/// `matter-emu node dump` and `device --from-dump` with the built binary: a plug recorded, its twin started
/// from the file, commissioned and toggled; bad dump files refused with exit 2 naming where and why.
@Suite("matter-emu node dump and device --from-dump")
struct TwinCommandTests {
    @Test("a plug's dump, in both formats, starts a twin that says it is a test device and toggles")
    func recordAndReplay() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-twin")
        let directory = temporary.path
        let (plug, _, state) = try DeviceCommandTests.commissionedPlug(in: directory)
        let store = ["--state-dir", state]
        for format in ["native", "ha"] {
            let written = try ProcessRunner.runMatterEmu(
                ["node", "dump", "1", "--format", format, "--output", "\(directory)/plug.\(format).json", "--json"]
                    + store
            ).json()
            #expect(written["format"] as? String == format)
            #expect((written["endpoints"] as? Int) == 2)
            #expect((written["attributes"] as? Int ?? 0) > 50, "\(written)")
        }
        // To standard output: the same file.
        let printed = try ProcessRunner.runMatterEmu(["node", "dump", "1"] + store)
        #expect(printed.exitCode == 0, "\(printed.stderr)")
        #expect(printed.stdout.contains("\"format\": \"matter-emu-node-dump\""))
        plug.stop()

        for format in ["native", "ha"] {
            let (twin, started) = try DeviceCommandTests.startDevice(
                ["--from-dump", "\(directory)/plug.\(format).json", "--secured-device-port", "0"],
                directory: directory + "/twin-\(format)")
            defer { twin.stop() }
            #expect(started["deviceType"] as? String == "twin of FFF1/8005", "\(started)")
            let port = try #require(started["port"] as? Int)
            let node = format == "native" ? "2" : "3"
            let paired = try ProcessRunner.runMatterEmu(
                ["pairing", "already-discovered", node, "20202021", "127.0.0.1", String(port)] + store)
            #expect(paired.exitCode == 0, "\(paired.stderr)")
            #expect(try ProcessRunner.runMatterEmu(["onoff", "toggle", node, "1"] + store).exitCode == 0)
            let read = try ProcessRunner.runMatterEmu(["onoff", "read", "on-off", node, "1", "--json"] + store)
            #expect(read.stdout.contains("true"), "\(read.stdout) \(read.stderr)")
            twin.stop()
            #expect(twin.stderr.contains("this twin is a TEST device"), "\(twin.stderr)")
        }

        // A fleet of twins: a group names the dump (relative to the configuration file) instead of a type.
        let config = directory + "/fleet.json"
        try Data(#"{"groups": [{"dump": "plug.ha.json", "count": 2, "name": "Twin"}]}"#.utf8).write(
            to: URL(fileURLWithPath: config))
        let fleet = try ControlledProcess(["fleet", "--config", config])
        let devices = try fleet.ctl(#"{"op":"devices"}"#).answer["devices"] as? [[String: Any]]
        #expect(devices?.count == 2)
        #expect(try fleet.get(0, "BasicInformation", "ProductID", device: 1) as? Int == 0x8005)
        #expect(try fleet.get(0, "BasicInformation", "NodeLabel", device: 1) as? String == "Twin 2")
        #expect(fleet.stderr.contains("this twin is a TEST device"), "\(fleet.stderr)")
    }

    @Test(
        "bad dump files are refused with exit 2, the file, the path in it and the reason",
        arguments: [
            ("not json", "not JSON"),
            (#"{"node_id": 1}"#, "no \"attributes\""),
            (#"{"attributes": {"1/6": true}}"#, #"attributes["1/6"]: not an "endpoint/cluster/attribute" path"#),
            (#"{"attributes": {"1/6/0": true}}"#, "the dump: no endpoint 0"),
            (
                #"{"attributes": {"0/29/0": [{"0": 22, "1": 3}], "0/29/1": [29, 40], "0/29/3": [4], "0/40/2": 1, "0/40/4": 2}}"#,
                "0/29/3: PartsList names endpoint 4, which is not in the dump"
            ),
            (#"{"attributes": {"0/29/0": [{"0": 22, "1": 3}], "0/29/1": [29]}}"#, "0/40/2: BasicInformation VendorID"),
        ])
    func badDumps(_ text: String, _ message: String) throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-twin")
        let file = temporary.path + "/dump.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let result = try ProcessRunner.runMatterEmu(
            [
                "device", "--from-dump", file, "--secured-device-port", "0", "--no-advertise", "--state-dir",
                temporary.path,
            ])
        #expect(result.exitCode == 2, "\(result.stderr)")
        #expect(result.stderr.contains("--from-dump \(file): "), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        // Nothing was started or stored.
        #expect(!FileManager.default.fileExists(atPath: temporary.path + "/device-0.sqlite"))
    }

    @Test("a missing file, and --from-dump with --type, are usage errors")
    func usage() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-twin")
        let missing = try ProcessRunner.runMatterEmu(
            ["device", "--from-dump", temporary.path + "/none.json", "--no-advertise", "--state-dir", temporary.path])
        #expect(missing.exitCode == 2 && missing.stderr.contains("cannot open the file"), "\(missing.stderr)")
        let both = try ProcessRunner.runMatterEmu(
            [
                "device", "--from-dump", "x.json", "--type", "on-off-light", "--no-advertise", "--state-dir",
                temporary.path,
            ])
        #expect(both.exitCode == 2 && both.stderr.contains("--type does not go with it"), "\(both.stderr)")
    }
}
