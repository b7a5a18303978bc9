import Dispatch
import Foundation
import MatterClusters
import MatterController
import MatterCore
import MatterStorage
import MatterTLV
import MatterTestSupport
import MatterTransport
import Synchronization
import Testing

@testable import MatterDevice

/// Crash consistency of the device's commissioning state: what survives a restart in the middle of
/// commissioning, and who may touch a fail-safe that holds another commissioner's fabric.
///
/// A commissioner "crashes" here by freezing in its ``ControllerConfiguration/checkpoint`` hook (its
/// queue blocks, so it sends nothing more, as a killed process), and is released at the end.
@Suite("Device fail-safe across crashes", .serialized)
struct FailSafeCrashTests {
    static func controller(
        _ workspace: TemporaryDirectory, name: String, freezeAt point: CommissioningCheckpoint? = nil,
        gate: CheckpointGate? = nil, busyPatience: Duration? = nil
    ) async throws -> Controller {
        let store = try ControllerStore(path: workspace.path + "/\(name).sqlite")
        let endpoint = try UDPEndpoint(queue: DispatchQueue(label: "test.\(name)"))
        var configuration = ControllerConfiguration(
            store: store, transport: endpoint, discovery: .none,
            trustStore: try DefaultPAATrustStore.load(directory: TestPaths.pkiDirectory + "/paa-trust-store"))
        configuration.interactionRetries = 0
        configuration.commissioningAttempts = 1
        configuration.responseTimeout = 3_000
        if let busyPatience { configuration.paseBusyPatience = busyPatience }
        if let point, let gate {
            configuration.checkpoint = { reached in if reached == point { gate.block() } }
        }
        return try await Controller.open(configuration)
    }

    /// Starts a commissioning of `device` by `controller` that freezes at its checkpoint; returns once frozen.
    static func commissionUntilFrozen(
        _ controller: Controller, _ device: VirtualDevice, nodeID: NodeID, gate: CheckpointGate
    ) async throws -> Task<CommissioningResult, any Error> {
        let address = try DeviceCommissioningTests.address(device.port)
        let task = Task {
            try await controller.commission(
                CommissioningRequest(locator: .address(address), passcode: 20_202_021, nodeID: nodeID))
        }
        for _ in 0..<500 where !gate.wasReached { try await Task.sleep(for: .milliseconds(10)) }
        try #require(gate.wasReached)
        return task
    }

    @Test("a restart after AddNOC, before CommissioningComplete, comes back without the fabric and commissionable")
    func restartRollsBackThePendingFabric() async throws {
        let workspace = try TemporaryDirectory()
        var device = try await DeviceCommissioningTests.device(workspace)
        let port = device.port
        let gate = CheckpointGate()
        let first = try await Self.controller(workspace, name: "first", freezeAt: .after(.addNOC), gate: gate)
        let frozen = try await Self.commissionUntilFrozen(first, device, nodeID: NodeID(1), gate: gate)
        #expect(await device.fabrics().isEmpty)  // pending, not committed

        // The device dies with our fabric pending under its fail-safe, and starts again on its file.
        await device.stop()
        device = try await DeviceCommissioningTests.device(workspace, port: port)
        #expect(await device.fabrics().isEmpty)
        #expect(await device.isCommissionable())

        // Commissionable for real: another commissioner gets it, and it has exactly that one fabric.
        let second = try await Self.controller(workspace, name: "second")
        _ = try await second.commission(
            CommissioningRequest(
                locator: .address(try DeviceCommissioningTests.address(port)), passcode: 20_202_021, nodeID: NodeID(2)))
        #expect(await device.fabrics().map(\.nodeID) == [NodeID(2)])
        let count = try await second.readAttribute(
            NodeID(2), endpoint: .root, cluster: .operationalCredentials,
            attribute: .OperationalCredentials.commissionedFabrics)
        #expect(count == .value(.unsigned(1)))

        gate.release()
        _ = await frozen.result  // the first commissioning now fails: its fabric is gone
        #expect(try first.store.node(NodeID(1)) == nil)
        await first.stop()
        await second.stop()
        await device.stop()
    }

    /// Every point of a commissioning from PASE on, where a second commissioner may try to join.
    static let racePoints = CommissioningCheckpoint.allCases.filter { $0 != .after(.discovery) }

    @Test(
        "a second commissioner at any point between PASE and the end gets BUSY or a closed window; the first succeeds",
        arguments: racePoints)
    func secondCommissionerCannotJoin(point: CommissioningCheckpoint) async throws {
        let workspace = try TemporaryDirectory()
        let device = try await DeviceCommissioningTests.device(workspace)
        let gate = CheckpointGate()
        let first = try await Self.controller(workspace, name: "first", freezeAt: point, gate: gate)
        let frozen = try await Self.commissionUntilFrozen(first, device, nodeID: NodeID(1), gate: gate)

        // The second knows the passcode too, and asks while the first is frozen at `point`.
        let second = try await Self.controller(workspace, name: "second", busyPatience: .zero)
        let error = await #expect(throws: ControllerError.self) {
            try await second.commission(
                CommissioningRequest(
                    locator: .address(try DeviceCommissioningTests.address(device.port)), passcode: 20_202_021,
                    nodeID: NodeID(2)))
        }
        // Until CommissioningComplete the first commissioning owns the device (BUSY); after it the window
        // is closed, and a device with a closed window refuses PBKDFParamRequest (FAILURE/INVALID_PARAMETER).
        let message = error.map { "\($0)" } ?? ""
        let windowClosed =
            Self.racePoints.firstIndex(of: point).map {
                $0 >= (Self.racePoints.firstIndex(of: .after(.commissioningComplete)) ?? 0)
            } ?? false
        #expect(
            message.contains(
                windowClosed ? "the device's commissioning window is closed" : "busy with another commissioner"),
            "\(message)")
        guard error?.category == .pase else {
            Issue.record("the second commissioner failed outside PASE: \(message)")
            gate.release()
            return
        }

        // Its failure touched nothing of the first's: that one completes, and the device has its one fabric.
        gate.release()
        let result = try await frozen.value
        #expect(result.node.nodeID == NodeID(1))
        #expect(await device.fabrics().map(\.nodeID) == [NodeID(1)])
        #expect(try second.store.node(NodeID(2)) == nil)
        await first.stop()
        await second.stop()
        await device.stop()
    }
}

/// A commit that cannot be written must not be acknowledged.
@Suite("Device commit that cannot be written")
struct UnwritableCommitTests {
    /// Makes the device's SQLite connection refuse writes (`PRAGMA query_only`), or accept them again.
    static func setReadOnly(_ device: VirtualDevice, _ readOnly: Bool) async throws {
        let store = await device.node.perform { node in device.root.value(in: node).fabrics.persistence.store }
        try store.database.withConnection { connection throws(StorageError) in
            try connection.execute("PRAGMA query_only = \(readOnly ? "ON" : "OFF")")
        }
    }

    @Test("CommissioningComplete fails when the fabric cannot be persisted; nothing is stored, the device rolls back")
    func commitFailureIsReported() async throws {
        let workspace = try TemporaryDirectory()
        let device = try await DeviceCommissioningTests.device(workspace)
        let controller = try await FailSafeCrashTests.controller(workspace, name: "controller")
        let request = CommissioningRequest(
            locator: .address(try DeviceCommissioningTests.address(device.port)), passcode: 20_202_021,
            nodeID: NodeID(9))
        try await Self.setReadOnly(device, true)
        let error = await #expect(throws: ControllerError.self) { try await controller.commission(request) }
        if case .commissioning(let stage, _)? = error { #expect(stage == .commissioningComplete) }
        #expect(try controller.store.node(NodeID(9)) == nil)
        #expect(await device.fabrics().isEmpty)
        #expect(await device.isCommissionable())

        // Writable again: the same device commissions, and its fabric is on disk.
        try await Self.setReadOnly(device, false)
        _ = try await controller.commission(request)
        #expect(await device.fabrics().map(\.nodeID) == [NodeID(9)])
        let port = device.port
        await device.stop()
        let restarted = try await DeviceCommissioningTests.device(workspace, port: port)
        #expect(await restarted.fabrics().map(\.nodeID) == [NodeID(9)])
        await controller.stop()
        await restarted.stop()
    }
}
