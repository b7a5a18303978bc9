import Foundation
import MatterTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Rooms as first-class objects (`rooms create/delete`, empty rooms listed) and group commands on a
/// group whose members differ: members without the capability are skipped (said on stderr), the
/// command fails only when every member it applied to failed; `group parts` shows the parts.
@Suite("Groups and rooms")
struct GroupAndRoomTests {
    @Test("rooms create and delete: an empty room exists and is listed; names compare without case")
    func roomsCreateDelete() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let directory = temporary.path
        let state = ["--state-dir", directory]
        let created = try ProcessRunner.runMatterEmu(["rooms", "create", "Kitchen"] + state)
        #expect(created.exitCode == 0, "\(created.stderr)")
        #expect(created.stdout.contains("room \"Kitchen\" created"))
        let duplicate = try ProcessRunner.runMatterEmu(["rooms", "create", "KITCHEN"] + state)
        #expect(duplicate.exitCode == 2)
        #expect(duplicate.stderr.contains("there is already a room named"), "\(duplicate.stderr)")
        #expect(try ProcessRunner.runMatterEmu(["rooms", "create", " "] + state).exitCode == 2)

        let listed = try ProcessRunner.runMatterEmu(["rooms", "--json"] + state).json()
        let rooms = try #require(listed["rooms"] as? [[String: Any]])
        #expect(rooms.map { $0["room"] as? String } == ["Kitchen"])
        #expect((rooms.first?["nodes"] as? [Any])?.isEmpty == true)
        #expect(try ProcessRunner.runMatterEmu(["rooms"] + state).stdout.contains("Kitchen: (no nodes)"))

        let deleted = try ProcessRunner.runMatterEmu(["rooms", "delete", "kitchen", "--json"] + state)
        #expect(deleted.exitCode == 0, "\(deleted.stderr)")
        #expect(try deleted.json()["deleted"] as? Bool == true)
        let again = try ProcessRunner.runMatterEmu(["rooms", "delete", "kitchen"] + state)
        #expect(again.exitCode == 2)
        #expect(again.stderr.contains("there is no room named \"kitchen\""), "\(again.stderr)")
        let empty = try ProcessRunner.runMatterEmu(["rooms", "--json"] + state).json()
        #expect((empty["rooms"] as? [Any])?.isEmpty == true)
    }

    @Test("a light and a lock: onoff on skips the lock and succeeds; parts; all members down fails")
    func mixedGroup() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let directory = temporary.path
        let state = directory + "/controller"
        var devices: [RunningProcess] = []
        defer { for device in devices { device.stop() } }
        for (node, type) in [(1, "color-temperature-light"), (2, "door-lock")] {
            let (device, started) = try DeviceCommandTests.startDevice(
                ["--type", type, "--secured-device-port", "0"], directory: directory + "/\(type)")
            devices.append(device)
            let port = try #require(started["port"] as? Int)
            let paired = try ProcessRunner.runMatterEmu([
                "pairing", "already-discovered", String(node), "20202021", "127.0.0.1", String(port), "--state-dir",
                state,
            ])
            #expect(paired.exitCode == 0, "\(paired.stderr)")
        }
        let store = ["--state-dir", state]
        #expect(try ProcessRunner.runMatterEmu(["group", "create", "Mixed"] + store).exitCode == 0)
        #expect(try ProcessRunner.runMatterEmu(["group", "add", "Mixed", "1"] + store).exitCode == 0)
        #expect(try ProcessRunner.runMatterEmu(["group", "add", "Mixed", "2"] + store).exitCode == 0)
        #expect(try ProcessRunner.runMatterEmu(["group", "create", "Locks"] + store).exitCode == 0)
        #expect(try ProcessRunner.runMatterEmu(["group", "add", "Locks", "2"] + store).exitCode == 0)

        // The lock has no OnOff cluster: skipped, said on stderr; the light ran it.
        let on = try ProcessRunner.runMatterEmu(["onoff", "on", "Mixed"] + store)
        #expect(on.exitCode == 0, "\(on.stderr)")
        #expect(on.stderr.contains("skipped: node 2 endpoint 1"), "\(on.stderr)")
        #expect(on.stdout.contains("succeeded on 1 of 2 members (1 skipped)"), "\(on.stdout)")
        let onJSON = try ProcessRunner.runMatterEmu(["onoff", "toggle", "Mixed", "--json"] + store).json()
        #expect(onJSON["succeeded"] as? Int == 1)
        #expect(onJSON["skipped"] as? Int == 1)
        #expect(onJSON["failed"] as? Int == 0)
        let statuses = (onJSON["members"] as? [[String: Any]])?.map { $0["status"] as? String }
        #expect(statuses == ["success", "skipped"])
        // A lock command skips the light.
        let lock = try ProcessRunner.runMatterEmu(["doorlock", "lock-door", "Mixed"] + store)
        #expect(lock.exitCode == 0, "\(lock.stderr)")
        #expect(lock.stderr.contains("skipped: node 1 endpoint 1"), "\(lock.stderr)")
        // No member of the group can: a usage error, not a success.
        let none = try ProcessRunner.runMatterEmu(["onoff", "on", "Locks"] + store)
        #expect(none.exitCode == 2, "\(none.stderr)")
        #expect(none.stderr.contains("no member of group \"Locks\" can do"), "\(none.stderr)")

        // The parts: the light's with its colour-temperature range, the lock's with its commands.
        let parts = try ProcessRunner.runMatterEmu(["group", "parts", "Mixed", "--json"] + store)
        #expect(parts.exitCode == 0, "\(parts.stderr)")
        let document = try parts.json()
        let list = try #require(document["parts"] as? [[String: Any]])
        #expect(list.map { $0["deviceType"] as? String } == ["ColorTemperatureLightDeviceType", "DoorLockDeviceType"])
        func trait(_ part: Int, _ name: String) -> [String: Any]? {
            (list[part]["traits"] as? [[String: Any]])?.first { $0["trait"] as? String == name }
        }
        #expect((trait(0, "OnOffTrait")?["commands"] as? [String])?.contains("toggle") == true)
        #expect((trait(0, "LevelControlTrait")?["commands"] as? [String])?.contains("moveToLevelWithOnOff") == true)
        let color = try #require(trait(0, "ColorControlTrait")?["attributes"] as? [String: Any])
        #expect(color["colorTempPhysicalMinMireds"] is Int)
        #expect(color["colorTempPhysicalMaxMireds"] is Int)
        #expect(color["colorTemperatureMireds"] == nil)  // dynamic state is not on a group part
        #expect(trait(0, "OnOffTrait")?["attributes"].map { ($0 as? [String: Any])?["onOff"] == nil } != false)
        // Every DoorLock command the lock accepts, in the trait's order (the generated trait has them all).
        let lockCommands = try #require(trait(1, "DoorLockTrait")?["commands"] as? [String])
        #expect(lockCommands.prefix(2) == ["lockDoor", "unlockDoor"] && lockCommands.contains("setUser"))
        let text = try ProcessRunner.runMatterEmu(["group", "parts", "Mixed"] + store)
        #expect(text.stdout.contains("group \"Mixed\": 2 parts"), "\(text.stdout)")
        #expect(text.stdout.contains("DoorLockTrait: commands lockDoor, unlockDoor, "), "\(text.stdout)")

        // A member that neither answers nor fails: --timeout bounds group parts (exit 7).
        devices[1].signal(SIGSTOP)
        let silent = try ProcessRunner.runMatterEmu(["group", "parts", "Mixed", "--timeout", "2"] + store)
        devices[1].signal(SIGCONT)
        #expect(silent.exitCode == 7, "\(silent.stderr)")
        #expect(silent.stderr.contains("gave no answer within --timeout 2 s"), "\(silent.stderr)")

        // Every member down: the command fails as unreachable.
        for device in devices { device.stop() }
        let down = try ProcessRunner.runMatterEmu(["onoff", "on", "Mixed", "--timeout", "3"] + store)
        #expect(down.exitCode == 7, "\(down.stderr)")
        #expect(down.stderr.contains("every member of group \"Mixed\" failed"), "\(down.stderr)")
    }
}
