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
import Synchronization
import Testing

/// What a commissioner leaves behind when it dies in the middle, and how the next run settles it
/// (`resumeInterruptedCommissionings`), against the project's virtual devices on loopback UDP.
///
/// The crashed commissioner is the real CLI, killed by its test hook (`MATTER_EMU_TEST_KILL_AT`);
/// a controller on the same store plays the restarted process. A controller frozen in its
/// checkpoint hook (its queue blocks) plays a commissioning still running.
@Suite("Commissioning after a crash", .serialized)
struct CrashRecoveryTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    func controller(freezeAt point: CommissioningCheckpoint? = nil, gate: CheckpointGate? = nil, retries: Int = 0)
        async throws -> Controller
    {
        let store = try ControllerStore(path: directory.storePath)
        let endpoint = try UDPEndpoint(port: 0, queue: DispatchQueue(label: "test.controller"))
        var configuration = ControllerConfiguration(
            store: store, transport: endpoint, discovery: .none, trustStore: try DefaultPAATrustStore.make())
        configuration.interactionRetries = retries
        configuration.commissioningAttempts = 1
        configuration.responseTimeout = 3_000
        if let point, let gate {
            configuration.checkpoint = { reached in if reached == point { gate.block() } }
        }
        return try await Controller.open(configuration)
    }

    /// A commissioning by `controller` that freezes at its checkpoint; returns once it is frozen.
    func commissionUntilFrozen(_ controller: Controller, _ device: VirtualDevice, nodeID: NodeID, gate: CheckpointGate)
        async throws -> Task<CommissioningResult, any Error>
    {
        let task = Task { try await controller.commission(device.request(nodeID: nodeID)) }
        for _ in 0..<500 where !gate.wasReached { try await Task.sleep(for: .milliseconds(10)) }
        try #require(gate.wasReached)
        return task
    }

    /// Runs `matter-emu pairing already-discovered` against `device` on this test's store, killing
    /// itself with SIGKILL at `point` (the CLI's test hook); returns how it ended.
    func pairAndDie(_ device: VirtualDevice, node: UInt64, at point: String) async throws -> (Int32, Bool, String) {
        let result = try await ProcessRunner.runMatterEmu(
            [
                "pairing", "already-discovered", "\(node)", "20202021", "127.0.0.1", "\(device.port)",
                "--state-dir", directory.path,
            ], environment: ["MATTER_EMU_TEST_KILL_AT": point], limit: .seconds(120))
        return (result.exitCode, result.termination.bySignal, result.stderr)
    }

    /// The commissioner process dies by SIGKILL at `point`, as the test hook announces.
    func expectKilled(_ ended: (Int32, Bool, String), at point: String) {
        #expect(ended.0 == 128 + SIGKILL && ended.1, "exit code \(ended.0): \(ended.2)")
        #expect(ended.2.contains("test hook: SIGKILL at \(point)"))
    }

    @Test("killed after AddNOC: a record, not a node; resuming finishes the commissioning on the device")
    func resumeAfterAddNOC() async throws {
        let device = try await VirtualDevices.start(in: directory, name: "lamp")
        expectKilled(try await pairAndDie(device, node: 3, at: "add-noc"), at: "add-noc")
        let store = try ControllerStore(path: directory.storePath)
        #expect(try store.nodes().isEmpty)
        #expect(try Controller.interruptedCommissionings(in: store) == [NodeID(3)])
        #expect(await device.fabrics().isEmpty)  // pending under the fail-safe, not committed

        let restarted = try await controller()
        await restarted.setAddress(device.directAddress, for: NodeID(3))
        let outcomes = await restarted.resumeInterruptedCommissionings()
        #expect(outcomes.count == 1)
        guard case .completed(let node)? = outcomes.first?.outcome else {
            Issue.record("expected a completed commissioning, got \(outcomes)")
            return
        }
        #expect(node.nodeID == NodeID(3) && node.vendorID == VendorID(0xFFF1) && node.productID == ProductID(0x8002))
        #expect(node.deviceTypes.map(\.deviceType).contains(DeviceTypeID(0x0101)))
        #expect(try store.node(NodeID(3)) != nil)
        #expect(try Controller.interruptedCommissionings(in: store).isEmpty)
        #expect(await device.fabrics().map(\.nodeID) == [NodeID(3)])
        #expect(await device.isCommissionable() == false)
        try await restarted.on(NodeID(3))
        #expect(await device.deviceValue(1, .onOff, .OnOff.onOff) == .bool(true))
        await restarted.stop()
        await device.stop()
    }

    @Test("killed after AddNOC, and the device restarted: resuming forgets the record; the device is commissionable")
    func resumeAfterRollback() async throws {
        var device = try await VirtualDevices.start(in: directory, name: "lamp")
        let port = device.port
        expectKilled(try await pairAndDie(device, node: 4, at: "add-noc"), at: "add-noc")
        await device.stop()
        device = try await VirtualDevices.start(in: directory, name: "lamp", port: port)

        let restarted = try await controller()
        let outcomes = await restarted.resumeInterruptedCommissionings()
        #expect(outcomes.map(\.nodeID) == [NodeID(4)])
        #expect(outcomes.first?.outcome == .rolledBack)
        let store = try ControllerStore(path: directory.storePath)
        #expect(try store.nodes().isEmpty)
        #expect(try Controller.interruptedCommissionings(in: store).isEmpty)
        #expect(await device.isCommissionable())
        _ = try await restarted.commission(device.request(nodeID: NodeID(4)))
        #expect(await device.fabrics().map(\.nodeID) == [NodeID(4)])
        await restarted.stop()
        await device.stop()
    }

    @Test("killed after CommissioningComplete, before the store write: resuming stores the node")
    func resumeAfterCommissioningComplete() async throws {
        let device = try await VirtualDevices.start(in: directory, name: "lamp")
        let point = "commissioning-complete"
        expectKilled(try await pairAndDie(device, node: 5, at: point), at: point)
        #expect(await device.fabrics().map(\.nodeID) == [NodeID(5)])  // committed already
        #expect(try ControllerStore(path: directory.storePath).nodes().isEmpty)

        let restarted = try await controller()
        let outcomes = await restarted.resumeInterruptedCommissionings()
        guard case .completed? = outcomes.first?.outcome else {
            Issue.record("expected a completed commissioning, got \(outcomes)")
            return
        }
        let count = try await restarted.readAttribute(
            NodeID(5), endpoint: .root, cluster: .operationalCredentials,
            attribute: .OperationalCredentials.commissionedFabrics)
        #expect(count == .value(.unsigned(1)))
        await restarted.stop()
        await device.stop()
    }

    @Test("the record of a commissioning still running (here: frozen) is left alone by another controller's resume")
    func liveCommissioningIsNotResumed() async throws {
        let device = try await VirtualDevices.start(in: directory, name: "lamp")
        let gate = CheckpointGate()
        let busy = try await controller(freezeAt: .after(.addNOC), gate: gate)
        let frozen = try await commissionUntilFrozen(busy, device, nodeID: NodeID(7), gate: gate)
        let other = try await controller()
        let outcomes = await other.resumeInterruptedCommissionings()
        #expect(outcomes.map(\.nodeID) == [NodeID(7)])
        #expect(outcomes.first?.outcome == .inProgress)
        #expect(await device.fabrics().isEmpty)
        gate.release()
        let result = try await frozen.value
        #expect(result.node.nodeID == NodeID(7))
        #expect(await device.fabrics().map(\.nodeID) == [NodeID(7)])
        #expect(try Controller.interruptedCommissionings(in: other.store).isEmpty)
        await busy.stop()
        await other.stop()
        await device.stop()
    }

    @Test("CommissioningComplete's answer lost (the device stalls after committing): sent again, seen as done")
    func commissioningCompleteAnswerLost() async throws {
        var configuration = VirtualDeviceConfiguration(
            deviceType: "dimmable-light", storagePath: directory.path + "/stall.sqlite",
            pkiDirectory: TestPaths.pkiDirectory)
        configuration.port = 0
        configuration.advertise = false
        // Short intervals: the controller gives up on the stalled device within about half a second.
        configuration.mrp = MRPParameters(idleInterval: 30, activeInterval: 30)
        let stalls = Mutex(0)
        configuration.checkpoint = { point in
            guard point == .fabricCommitted,
                stalls.withLock({
                    $0 += 1
                    return $0
                }) == 1
            else { return }
            Thread.sleep(forTimeInterval: 1.5)  // on the device's queue: it hears nothing meanwhile
        }
        let device = try await VirtualDevice.start(configuration)
        let controller = try await controller(retries: 5)
        let result = try await controller.commission(device.request(nodeID: NodeID(6)))
        #expect(result.node.nodeID == NodeID(6))
        #expect(stalls.withLock { $0 } == 1)
        #expect(await device.fabrics().map(\.nodeID) == [NodeID(6)])
        #expect(try controller.store.node(NodeID(6)) != nil)
        await controller.stop()
        await device.stop()
    }

    @Test("checkpoint names: every stage, the record and the node row")
    func checkpointNames() throws {
        let names = CommissioningCheckpoint.allCases.map(\.description)
        #expect(names.count == CommissioningStage.allCases.count + 2)
        #expect(Set(names).count == names.count)
        let root = try #require(names.firstIndex(of: "add-trusted-root-certificate"))
        #expect(names[root + 1] == "pending-recorded")
        #expect(names[root + 2] == "add-noc")
        #expect(names.suffix(2) == ["node-stored", "store-node"])
    }
}
