import Foundation
import MatterTestSupport
import Testing

/// `device --control PATH` and `matter-emu ctl`, through the built binary and a real Unix socket.
@Suite struct ControlPlaneTests {
    @Test func getAndSetGoThroughTheSocketAndBadRequestsChangeNothing() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-ctl")
        let directory = temporary.path
        let socket = directory + "/c.sock"
        let process = try RunningProcess([
            ProcessRunner.matterEmu.path, "device", "--type", "door-lock", "--secured-device-port", "0",
            "--no-advertise", "--state-dir", directory, "--control", socket, "--json",
        ])
        defer { process.stop() }
        let first = process.stdoutLine(within: .seconds(60)) { _ in true }
        #expect(first?.contains("started") == true, "\(process.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: socket)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let jam = try ProcessRunner.runMatterEmu([
            "ctl", socket, #"{"op":"set","endpoint":1,"cluster":"DoorLock","attribute":"LockState","value":0}"#,
        ])
        #expect(jam.exitCode == 0)
        #expect(try jam.json()["value"] as? Int == 0)

        let outOfRange = try ProcessRunner.runMatterEmu([
            "ctl", socket, #"{"op":"set","endpoint":1,"cluster":"DoorLock","attribute":"LockState","value":9}"#,
        ])
        #expect(outOfRange.exitCode == 8)
        #expect(try outOfRange.json()["ok"] as? Bool == false)

        let unknown = try ProcessRunner.runMatterEmu([
            "ctl", socket, #"{"op":"get","endpoint":1,"cluster":"Nope","attribute":"x"}"#,
        ])
        #expect(unknown.exitCode == 8)
        #expect((try unknown.json()["error"] as? String)?.contains("Nope") == true)

        let malformed = try ProcessRunner.runMatterEmu(["ctl", socket, "{not json"])
        #expect(malformed.exitCode == 8)

        let label = try ProcessRunner.runMatterEmu([
            "ctl", socket,
            #"{"op":"set","endpoint":0,"cluster":"BasicInformation","attribute":"NodeLabel","value":"front door"}"#,
        ])
        #expect(label.exitCode == 0)

        let state = try ProcessRunner.runMatterEmu([
            "ctl", socket, #"{"op":"get","endpoint":1,"cluster":"DoorLock","attribute":"LockState"}"#,
        ])
        #expect(try state.json()["value"] as? Int == 0)
        let name = try ProcessRunner.runMatterEmu([
            "ctl", socket, #"{"op":"get","endpoint":0,"cluster":"BasicInformation","attribute":"NodeLabel"}"#,
        ])
        #expect(try name.json()["value"] as? String == "front door")
    }

    @Test func ctlWithoutASocketIsUnreachable() throws {
        let result = try ProcessRunner.runMatterEmu([
            "ctl", NSTemporaryDirectory() + "no-such-matter-emu.sock", #"{"op":"get"}"#,
        ])
        #expect(result.exitCode == 7)
    }
}
