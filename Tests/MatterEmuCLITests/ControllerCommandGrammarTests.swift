import Foundation
import MatterTestSupport
import Testing

/// Usage errors and store-only behaviour of the controller commands (no device needed).
@Suite("CLI grammar of the controller commands")
struct ControllerCommandGrammarTests {
    /// A fresh state directory per test.
    typealias StateDirectory = TemporaryDirectory

    @Test(arguments: [
        (["pairing", "code"], "missing argument <node-id>"),
        (["pairing", "code", "5"], "missing argument <payload>"),
        (["pairing", "code", "0", "MT:-24J0AFN00KA0648G00"], "not an operational node ID"),
        (["pairing", "code", "5", "MT:XYZ"], "base38"),
        (["pairing", "onnetwork", "5", "12345678"], "passcode"),
        (["pairing", "code", "5", "35191106788"], "passcode 11111111"),
        (["pairing", "code", "5", "3576-780-7533"], "passcode 12345678"),
        (["pairing", "code", "5", "34915200008"], "passcode"),
        (["pairing", "already-discovered", "5", "00000000", "127.0.0.1", "5540"], "passcode"),
        (["pairing", "onnetwork-long", "5", "11111111", "3840"], "passcode"),
        (["pairing", "onnetwork", "five", "20202021"], "<node-id> expects a number"),
        (["pairing", "onnetwork-long", "5", "20202021", "5000"], "<discriminator> 5000 is out of range"),
        (["pairing", "already-discovered", "5", "20202021", "not-an-ip", "5540"], "<address>"),
        (["pairing", "already-discovered", "5", "20202021", "127.0.0.1", "0"], "<port> cannot be 0"),
        (["pairing", "code", "5", "MT:-24J0AFN00KA0648G00", "--address", "nonsense"], "--address"),
        (["pairing", "code", "5", "MT:-24J0AFN00KA0648G00", "--name", " "], "--name cannot be empty"),
        (
            ["pairing", "code", "5", "MT:-24J0AFN00KA0648G00", "--paa-trust-store", "/nonexistent-dir"],
            "--paa-trust-store"
        ),
        (
            ["pairing", "open-commissioning-window", "5", "--window-timeout", "10"],
            "--window-timeout 10 is out of range"
        ),
        (["pairing", "open-commissioning-window", "5", "--iterations", "5"], "--iterations 5 is out of range"),
        (["pairing", "unpair"], "missing argument <node>"),
        (["onoff", "on"], "missing argument <node|group>"),
        (["onoff", "on", "5", "1", "2"], "unexpected argument '2'"),
        (["onoff", "off-with-effect", "0"], "missing argument <variant>"),
        (["onoff", "off-with-effect", "0", "300", "5"], "<variant> 300 is out of range"),
        (["levelcontrol", "move-to-level", "255", "0", "0", "0", "5"], "<level> 255 is out of range (0...254)"),
        (["levelcontrol", "move-to-level-with-on-off", "10", "soon", "0", "0", "5"], "<transition> expects a number"),
        (["colorcontrol", "move-to-color-temperature", "warm", "0", "0", "0", "5"], "<mireds> expects a number"),
        (["doorlock", "lock-door"], "missing argument <node|group>"),
        (["onoff", "read", "bogus", "5"], "cluster onoff has no attribute 'bogus'"),
        (["onoff", "write", "on-off", "true", "5"], "onoff on-off is read-only"),
        (["onoff", "write", "on-time", "lots", "5"], "'lots' is not a valid uint16"),
        (["onoff", "subscribe", "on-off", "10", "5", "5"], "<max-interval> must be at least"),
        (["levelcontrol", "read", "current-level", "5", "ep"], "<endpoint> expects a number"),
        (["onoff", "on", "5", "--timeout", "0"], "--timeout expects whole seconds, 1...86400, got '0'"),
        (["onoff", "on", "5", "--timeout", "0.001"], "--timeout expects whole seconds, 1...86400, got '0.001'"),
        (["group", "create", "evil\u{202E}name"], "contains an invisible format character (U+202E)"),
        (["rename", "5"], "missing argument <name>"),
        (["room", "5"], "missing argument <room> (or --clear)"),
        (["group", "create", "42"], "a group name cannot be a number"),
        (["group", "create", "bad\u{1B}[31mname"], "contains a control character (U+001B)"),
        (["pairing", "code", "5", "MT:-24J0AFN00KA0648G00", "--name", "0x1F"], "cannot be a number"),
        (["pairing", "code", "5", "MT:-24J0AFN00KA0648G00", "--name", "lamp\u{7}"], "control characters"),
        (["group", "add", "lights"], "missing argument <node>"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let state = try StateDirectory()
        let result = try ProcessRunner.runMatterEmu(arguments + ["--state-dir", state.path])
        #expect(result.exitCode == 2, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("unknown nodes and groups are usage errors, in text and JSON")
    func unknownTargets() throws {
        let state = try StateDirectory()
        let text = try ProcessRunner.runMatterEmu(["onoff", "toggle", "kitchen", "--state-dir", state.path])
        #expect(text.exitCode == 2)
        #expect(text.stderr.contains("no node named \"kitchen\""))
        let json = try ProcessRunner.runMatterEmu(["describe", "9", "--state-dir", state.path, "--json"])
        #expect(json.exitCode == 2)
        let error = try #require(try json.json()["error"] as? [String: Any])
        #expect(error["exitCode"] as? Int == 2)
        #expect((error["message"] as? String)?.contains("no node 9 in the store") == true)
    }

    @Test("groups, rooms and nodes work on an empty store without a network")
    func storeCommands() throws {
        let state = try StateDirectory()
        let arguments = ["--state-dir", state.path]
        let nodes = try ProcessRunner.runMatterEmu(["nodes", "--json"] + arguments)
        #expect(nodes.exitCode == 0)
        #expect((try nodes.json()["nodes"] as? [Any])?.isEmpty == true)
        #expect(try ProcessRunner.runMatterEmu(["group", "create", "Lights"] + arguments).exitCode == 0)
        let duplicate = try ProcessRunner.runMatterEmu(["group", "create", "LIGHTS"] + arguments)
        #expect(duplicate.exitCode == 2)
        #expect(duplicate.stderr.contains("already used"))
        let list = try ProcessRunner.runMatterEmu(["group", "list", "--json"] + arguments)
        let groups = try #require(try list.json()["groups"] as? [[String: Any]])
        #expect(groups.map { $0["group"] as? String } == ["Lights"])
        let show = try ProcessRunner.runMatterEmu(["group", "show", "lights"] + arguments)
        #expect(show.stdout == "Lights: (no members)\n")
        let empty = try ProcessRunner.runMatterEmu(["onoff", "on", "lights"] + arguments)
        #expect(empty.exitCode == 2)
        #expect(empty.stderr.contains("has no members"))
        #expect(try ProcessRunner.runMatterEmu(["group", "delete", "lights"] + arguments).exitCode == 0)
        #expect(try ProcessRunner.runMatterEmu(["group", "show", "lights"] + arguments).exitCode == 2)
        let rooms = try ProcessRunner.runMatterEmu(["rooms", "--json"] + arguments)
        #expect(rooms.exitCode == 0)
        #expect((try rooms.json()["rooms"] as? [Any])?.isEmpty == true)
    }

    @Test("a state directory that cannot be created is a storage error (exit 9)")
    func unusableStateDirectory() throws {
        let state = try StateDirectory()
        let file = state.path + "/file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let result = try ProcessRunner.runMatterEmu(["nodes", "--state-dir", file + "/state"])
        #expect(result.exitCode == 9)
        #expect(result.stderr.contains("storage error"))
    }

    @Test("the controller commands are listed in the help, and each has its own help")
    func help() throws {
        let top = try ProcessRunner.runMatterEmu(["--help"])
        // At the top, each cluster of the model is one line; its own help lists its commands.
        for command in [
            "pairing code", "onoff ...", "levelcontrol ...", "thermostat ...", "group create", "describe",
            "model cluster",
        ] {
            #expect(top.stdout.contains(command), "\(command)")
        }
        let onOff = try ProcessRunner.runMatterEmu(["onoff", "--help"])
        for command in ["onoff on", "onoff read", "onoff on-with-timed-off", "onoff subscribe-event"] {
            #expect(onOff.stdout.contains(command), "\(command)")
        }
        let level = try ProcessRunner.runMatterEmu(["levelcontrol", "--help"])
        #expect(level.stdout.contains("levelcontrol move-to-level "))
        let pairing = try ProcessRunner.runMatterEmu(["pairing", "code", "--help"])
        #expect(pairing.exitCode == 0)
        #expect(pairing.stdout.contains("--paa-trust-store"))
        #expect(pairing.stdout.contains("--skip-attestation"))
        let read = try ProcessRunner.runMatterEmu(["onoff", "read", "--help"])
        #expect(read.stdout.contains("start-up-on-off"))
    }

    @Test("control characters in what is printed appear escaped, never raw")
    func controlCharactersEscaped() throws {
        let state = try StateDirectory()
        let result = try ProcessRunner.runMatterEmu(["group", "show", "evil\u{1B}[2Jname", "--state-dir", state.path])
        #expect(result.exitCode == 2)
        #expect(!result.stderr.unicodeScalars.contains("\u{1B}"))
        #expect(result.stderr.contains("evil\\u{1B}[2Jname"), "\(result.stderr)")
    }
}
