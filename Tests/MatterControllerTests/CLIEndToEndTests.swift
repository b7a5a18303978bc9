import Dispatch
import Foundation
import MatterClusters
import MatterController
import MatterCore
import MatterDevice
import MatterStorage
import MatterTLV
import MatterTestSupport
import MatterTransport
import Testing

/// Runs the built `matter-emu` binary against the virtual devices (MatterDevice) on loopback UDP, as a
/// user would (direct addresses: no DNS-SD here). Device-side state is read from the devices.
@Suite("matter-emu controller commands end to end (loopback UDP, virtual devices)")
struct CLIEndToEndTests {
    typealias Result = ProcessResult

    /// Runs the binary (the virtual devices keep serving on their queues); a hang guard of three minutes.
    static func run(_ arguments: [String]) async throws -> Result {
        try await ProcessRunner.runMatterEmu(arguments, limit: .seconds(180))
    }

    static func json(_ result: Result) throws -> [String: Any] { try result.json() }

    let directory: TemporaryDirectory
    let devices: TemporaryDirectory
    var state: [String] { ["--state-dir", directory.path] }

    init() throws {
        directory = try TemporaryDirectory()
        devices = try TemporaryDirectory()
    }

    func device(_ name: String, type: String = "dimmable-light") async throws -> VirtualDevice {
        try await VirtualDevices.start(type, in: devices, name: name)
    }

    func pair(_ device: VirtualDevice, node: UInt64, passcode: UInt32 = 20_202_021, extra: [String] = []) async throws
        -> Result
    {
        try await Self.run(
            ["pairing", "already-discovered", "\(node)", "\(passcode)", "127.0.0.1", "\(device.port)"] + state + extra)
    }

    @Test("pair by address, then control, read, describe, group and unpair through the CLI")
    func fullTour() async throws {
        let device = try await self.device("lamp")
        let paired = try await pair(device, node: 5, extra: ["--name", "Desk lamp", "--room", "Office", "--json"])
        #expect(paired.exitCode == 0, "\(paired.stderr)")
        let document = try Self.json(paired)
        #expect(document["node"] as? Int == 5)
        #expect(document["attestationSkipped"] as? Bool == false)
        let stages = try #require(document["stages"] as? [[String: Any]])
        #expect(stages.compactMap { $0["stage"] as? String }.first == "discovery")
        #expect(stages.compactMap { $0["stage"] as? String }.contains("attestation-verification"))
        #expect(paired.stderr.contains("ok    commissioning-complete"))

        let on = try await Self.run(["onoff", "on", "Desk lamp"] + state)
        #expect(on.exitCode == 0, "\(on.stderr)")
        #expect(await device.deviceValue(1, .onOff, .OnOff.onOff) == .bool(true))
        let read = try await Self.run(["onoff", "read", "on-off", "5", "--json"] + state)
        #expect(read.exitCode == 0, "\(read.stderr)")
        #expect(try Self.json(read)["value"] as? Bool == true)
        let null = try await Self.run(["onoff", "read", "start-up-on-off", "5"] + state)
        #expect(null.exitCode == 0)
        #expect(null.stdout == "null\n")
        let unsupported = try await Self.run(["colorcontrol", "read", "color-mode", "5"] + state)
        #expect(unsupported.exitCode == 8)
        #expect(unsupported.stderr.contains("not supported"))
        let level = try await Self.run(["levelcontrol", "move-to-level", "77", "0", "0", "0", "5", "1"] + state)
        #expect(level.exitCode == 0, "\(level.stderr)")
        #expect(await device.deviceValue(1, .levelControl, .LevelControl.currentLevel) == .unsigned(77))
        let write = try await Self.run(["levelcontrol", "write", "on-level", "100", "5"] + state)
        #expect(write.exitCode == 0, "\(write.stderr)")
        #expect(await device.deviceValue(1, .levelControl, .LevelControl.onLevel) == .unsigned(100))
        let describe = try await Self.run(["describe", "Desk lamp"] + state)
        #expect(describe.exitCode == 0, "\(describe.stderr)")
        #expect(describe.stdout.contains("endpoint 1: Dimmable Light"))
        #expect(describe.stdout.contains("onoff (0x0006)"))
        #expect(describe.stdout.contains("off-with-effect"))

        #expect(try await Self.run(["group", "create", "lights"] + state).exitCode == 0)
        #expect(try await Self.run(["group", "add", "lights", "5"] + state).exitCode == 0)
        let groupOff = try await Self.run(["onoff", "off", "lights", "--json"] + state)
        #expect(groupOff.exitCode == 0, "\(groupOff.stderr)")
        #expect(try Self.json(groupOff)["succeeded"] as? Int == 1)
        #expect(await device.deviceValue(1, .onOff, .OnOff.onOff) == .bool(false))

        let nodes = try await Self.run(["nodes", "--json"] + state)
        let list = try #require(try Self.json(nodes)["nodes"] as? [[String: Any]])
        #expect(list.map { $0["name"] as? String } == ["Desk lamp"])
        #expect(list.first?["room"] as? String == "Office")

        let unpair = try await Self.run(["pairing", "unpair", "5"] + state)
        #expect(unpair.exitCode == 0, "\(unpair.stderr)")
        #expect(await device.fabrics().isEmpty)
        #expect(try ControllerStore(path: directory.storePath).nodes().isEmpty)
        await device.stop()
    }

    /// Clusters the CLI has no hand-written code for, through the commands made from the generated model.
    @Test("every cluster of the model in chip-tool's grammar: read, write and invoke without hand-written commands")
    func clustersFromTheModel() async throws {
        let device = try await self.device("lamp")
        #expect(try await pair(device, node: 5).exitCode == 0)

        // GeneralDiagnostics lives on endpoint 0, which is the default for the node's clusters.
        let upTime = try await Self.run(["generaldiagnostics", "read", "up-time", "5", "--json"] + state)
        #expect(upTime.exitCode == 0, "\(upTime.stderr)")
        let document = try Self.json(upTime)
        #expect(document["endpoint"] as? Int == 0)
        #expect(document["value"] as? Int != nil)

        let label = try await Self.run(["basicinformation", "write", "node-label", "Hall lamp", "5"] + state)
        #expect(label.exitCode == 0, "\(label.stderr)")
        #expect(await device.deviceValue(0, .basicInformation, .BasicInformation.nodeLabel) == .utf8("Hall lamp"))
        // The model's constraint (NodeLabel: at most 32 bytes) is checked before anything is sent.
        let long = try await Self.run(
            ["basicinformation", "write", "node-label", String(repeating: "x", count: 33), "5"] + state)
        #expect(long.exitCode == 2)

        // A request with a field, answered with a status; then one answered with a response command.
        let identify = try await Self.run(["identify", "identify", "30", "5"] + state)
        #expect(identify.exitCode == 0, "\(identify.stderr)")
        let identifyTime = await device.deviceValue(1, .identify, .Identify.identifyTime)
        #expect(identifyTime.map { $0 != .unsigned(0) } == true, "\(String(describing: identifyTime))")
        let snapshot = try await Self.run(["generaldiagnostics", "time-snapshot", "5", "--json"] + state)
        #expect(snapshot.exitCode == 0, "\(snapshot.stderr)")
        let response = try Self.json(snapshot)
        #expect(response["response"] as? String == "TimeSnapshotResponse")
        let fields = try #require(response["fields"] as? [String: Any])
        #expect(fields["systemTimeMs"] as? Int != nil)

        // A cluster the device does not have answers UNSUPPORTED_CLUSTER: exit 8.
        let thermostat = try await Self.run(["thermostat", "read", "local-temperature", "5"] + state)
        #expect(thermostat.exitCode == 8)
        // Unknown words are usage errors that name the nearest known ones.
        let typo = try await Self.run(["identify", "identfy", "30", "5"] + state)
        #expect(typo.exitCode == 2)
        #expect(typo.stderr.contains("nearest: identify"))
        let missing = try await Self.run(["identify", "identify", "5"] + state)
        #expect(missing.exitCode == 2)
        await device.stop()
    }

    @Test("a wrong passcode exits 4 with one clear line and stores nothing")
    func wrongPasscode() async throws {
        let device = try await self.device("lamp")
        let result = try await pair(device, node: 6, passcode: 20_202_022)
        #expect(result.exitCode == 4)
        #expect(result.stderr.contains("error: commissioning failed at stage pase: PASE failed: wrong setup passcode"))
        #expect(result.stdout.isEmpty)
        #expect(try ControllerStore(path: directory.storePath).nodes().isEmpty)
        await device.stop()
    }

    @Test("pairing a device that is commissioned already says its window is closed, in words (exit 4)")
    func closedWindowInWords() async throws {
        let device = try await self.device("lamp")
        let first = try await pair(device, node: 8)
        #expect(first.exitCode == 0, "\(first.stderr)")
        let again = try await pair(device, node: 9)
        #expect(again.exitCode == 4)
        #expect(
            again.stderr.contains("the device's commissioning window is closed (it is commissioned already"),
            "\(again.stderr)")
        #expect(!again.stderr.contains("StatusReport(general"))
        await device.stop()
    }

    @Test("an untrusted PAA exits 5, disarms the device's fail-safe and stores nothing; --skip-attestation pairs it")
    func untrustedPAA() async throws {
        let device = try await self.device("lamp")
        let trust = try TemporaryDirectory()
        try Data(CommissioningTests.sdkTestPAAFFF1.utf8).write(to: URL(fileURLWithPath: trust.path + "/sdk.pem"))
        let result = try await pair(device, node: 7, extra: ["--paa-trust-store", trust.path])
        #expect(result.exitCode == 5)
        #expect(result.stderr.contains("error: commissioning failed at stage attestation-verification"))
        #expect(result.stderr.contains("PAA not found"))
        #expect(try ControllerStore(path: directory.storePath).nodes().isEmpty)
        #expect(await device.fabrics().isEmpty)
        #expect(await device.isCommissionable())

        let skipped = try await pair(device, node: 7, extra: ["--paa-trust-store", trust.path, "--skip-attestation"])
        #expect(skipped.exitCode == 0, "\(skipped.stderr)")
        #expect(skipped.stderr.contains("WARNING: --skip-attestation"))
        #expect(try ControllerStore(path: directory.storePath).node(NodeID(7))?.attestationSkipped == true)
        await device.stop()
    }

    @Test("a device that does not answer exits 7")
    func silentDevice() async throws {
        let device = try await self.device("lamp")
        await device.stop()
        let result = try await pair(device, node: 8)
        #expect(result.exitCode == 7)
        #expect(result.stderr.contains("did not answer PASE"))
    }

    @Test("a group command with one member stopped succeeds and names it; all stopped fails with exit 7")
    func groupWithStoppedMembers() async throws {
        let first = try await device("first")
        let second = try await device("second")
        #expect(try await pair(first, node: 1).exitCode == 0)
        #expect(try await pair(second, node: 2).exitCode == 0)
        #expect(try await Self.run(["group", "create", "pair"] + state).exitCode == 0)
        #expect(try await Self.run(["group", "add", "pair", "1"] + state).exitCode == 0)
        #expect(try await Self.run(["group", "add", "pair", "2", "1"] + state).exitCode == 0)
        await second.stop()
        let one = try await Self.run(["onoff", "on", "pair"] + state)
        #expect(one.exitCode == 0, "\(one.stderr)")
        #expect(one.stderr.contains("warning: node 2 endpoint 1"))
        #expect(one.stdout.contains("succeeded on 1 of 2 members"))
        #expect(await first.deviceValue(1, .onOff, .OnOff.onOff) == .bool(true))
        await first.stop()
        let none = try await Self.run(["onoff", "on", "pair"] + state)
        #expect(none.exitCode == 7)
        #expect(none.stderr.contains("every member of group \"pair\" failed"))
    }

    @Test("20 processes toggling different nodes at once all succeed against one store")
    func concurrentProcesses() async throws {
        let count = 20
        var devices: [VirtualDevice] = []
        for index in 1...count {
            let device = try await self.device("lamp\(index)")
            #expect(try await pair(device, node: UInt64(index)).exitCode == 0)
            devices.append(device)
        }
        let results = try await withThrowingTaskGroup(of: Result.self) { group in
            for index in 1...count { group.addTask { try await Self.run(["onoff", "toggle", "\(index)"] + state) } }
            var all: [Result] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.allSatisfy { $0.exitCode == 0 }, "\(results.map(\.stderr))")
        for device in devices {
            #expect(await device.deviceValue(1, .onOff, .OnOff.onOff) == .bool(true))
            await device.stop()
        }
        #expect(try ControllerStore(path: directory.storePath).nodes().count == count)
    }
}
