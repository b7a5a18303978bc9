import Foundation
import MatterController
import MatterStorage
import MatterTestSupport
import Testing

/// One crash scenario's world: a `matter-emu device` on loopback with its state file, and the
/// commissioner's state directory, in a temporary directory of its own (scenarios run in parallel).
struct CrashWorkspace {
    static let passcode = "20202021"
    /// Devices advertise short MRP intervals (SII/SAI 100 ms, negotiated in PASE/CASE): a commissioner
    /// notices a dead device in about a second instead of three (MRP's constants stay the spec's). A
    /// commissioner killed after PASE leaves the device owned by its fail-safe, and other commissioners
    /// get BUSY until it expires: 10 s here instead of the default 60 s keeps the suite short.
    static let deviceOptions = [
        "--no-advertise", "--passcode", passcode, "--mrp-idle-interval", "100", "--mrp-active-interval", "100",
        "--fail-safe-expiry", "10",
    ]
    /// At most this many scenarios run at once (each is a device and a commissioner process).
    static let limit = ConcurrencyLimit(4)

    let directory: TemporaryDirectory
    let node: UInt64

    init(node: UInt64) throws {
        directory = try TemporaryDirectory(prefix: "matter-emu-crash")
        self.node = node
    }

    var stateDirectory: String { directory.file("ctl") }
    var deviceStore: String { directory.file("device.sqlite") }
    var storePath: String { ControllerStateDirectory.storePath(in: stateDirectory) }

    /// Starts the device on its state file and `port` (by default a free one below the ephemeral range, so
    /// that it is still free when the device is started again after a kill: `TestPorts`); with `killAt`, the
    /// test hook makes it SIGKILL itself at that point of commissioning.
    func startDevice(port: UInt16 = TestPorts.freeUDP(), killAt point: String? = nil) async throws -> EmuDevice {
        try await EmuDevice.start(
            ["--secured-device-port", "\(port)", "--KVS", deviceStore] + Self.deviceOptions,
            environment: point.map { ["MATTER_EMU_TEST_KILL_AT": $0] } ?? [:])
    }

    /// The arguments of `pairing already-discovered` for the device on `port`.
    func pairing(port: UInt16) -> [String] {
        ["pairing", "already-discovered", "\(node)", Self.passcode, "::1", "\(port)", "--state-dir", stateDirectory]
    }

    /// Starts a commissioning of the device on `port` in the background (`killAt`: the test hook).
    func startPairing(port: UInt16, killAt point: String? = nil) throws -> RunningProcess {
        try RunningProcess(
            [ProcessRunner.matterEmu.path] + pairing(port: port) + ["--json"],
            environment: point.map { ["MATTER_EMU_TEST_KILL_AT": $0] } ?? [:])
    }

    /// Runs a controller command on this scenario's store to its end (a hang guard of three minutes).
    func ctl(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.runMatterEmu(arguments + ["--state-dir", stateDirectory], limit: .seconds(180))
    }

    /// The node IDs `matter-emu nodes --json` lists (nil when the command fails).
    func listedNodes() async throws -> (ProcessResult, [UInt64]?) {
        let result = try await ctl(["nodes", "--json"])
        guard result.succeeded, let nodes = try? result.json()["nodes"] as? [[String: Any]] else {
            return (result, nil)
        }
        return (result, nodes.compactMap { ($0["node"] as? NSNumber)?.uint64Value })
    }

    /// The `value` an attribute read prints with `--json`.
    func read(_ cluster: String, _ attribute: String, port: UInt16) async throws -> Any? {
        let result = try await ctl([cluster, "read", attribute, "\(node)", "--address", "[::1]:\(port)", "--json"])
        return result.succeeded ? try result.json()["value"] : nil
    }

    /// After a crash and restart, exactly one of two outcomes holds, and the stores stay readable:
    /// commissioned (the store has the node, `onoff toggle` works, the read-back matches, the device has
    /// exactly one fabric), or commissionable (no node and no half-added one in the store, and a fresh
    /// commissioning succeeds; then the same checks). One `#expect` per check the bash crash suite made.
    func verify(_ label: String, devicePort port: UInt16) async throws {
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") {
            for file in [storePath, deviceStore] {
                let check = try await ProcessRunner.run(
                    ["/usr/bin/sqlite3", file, "PRAGMA integrity_check"], limit: .seconds(60))
                #expect(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ok", "\(label): \(file)")
            }
        }
        let (nodesResult, listed) = try await listedNodes()
        #expect(listed != nil, "\(label): the controller's store is readable: \(nodesResult.stderr)")
        let outcome: String
        if listed?.contains(node) == true {
            outcome = "commissioned"
        } else {
            outcome = "commissionable"
            let interrupted = try Controller.interruptedCommissionings(in: ControllerStore(path: storePath))
            #expect(interrupted.isEmpty, "\(label): no half-added node in the store (interrupted: \(interrupted))")
            let again = try await ProcessRunner.runMatterEmu(pairing(port: port) + ["--json"], limit: .seconds(180))
            #expect(
                again.succeeded,
                "\(label): not commissioned, so commissionable again: a fresh commissioning succeeds: \(again.stderr.suffix(600))"
            )
        }
        let toggle = try await ctl(["onoff", "toggle", "\(node)", "--address", "[::1]:\(port)"])
        #expect(toggle.succeeded, "\(label) (\(outcome)): onoff toggle works: \(toggle.stderr.suffix(300))")
        let onOff = try await read("onoff", "on-off", port: port)
        #expect(onOff as? Bool == true, "\(label) (\(outcome)): on-off reads back true after the toggle")
        let fabrics = try await read("operationalcredentials", "commissioned-fabrics", port: port)
        #expect(
            (fabrics as? NSNumber)?.intValue == 1,
            "\(label) (\(outcome)): the device has exactly one fabric (CommissionedFabrics = \(String(describing: fabrics)))"
        )
        let (_, after) = try await listedNodes()
        #expect(after?.contains(node) == true, "\(label) (\(outcome)): the store has node \(node)")
    }
}

extension Termination {
    /// Whether this is the test hook's SIGKILL at `point`, as the process's stderr announces it.
    func isTestHookKill(at point: String, stderr: String) -> Bool {
        isSIGKILL && stderr.contains("test hook: SIGKILL at \(point)\n")
    }
}
