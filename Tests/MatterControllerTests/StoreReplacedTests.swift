import Dispatch
import MatterController
import MatterCore
import MatterDevice
import MatterStorage
import MatterTestSupport
import MatterTransport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The controller's store deleted or replaced during a commissioning: no success is reported, and
/// the device is rolled back (fail-safe disarmed, or our fabric removed again).
@Suite("Store deleted or replaced during commissioning")
struct StoreReplacedTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// A controller whose checkpoint hook runs `action` on the store file at `point`.
    func controller(at point: CommissioningCheckpoint, _ action: @escaping @Sendable (String) -> Void)
        async throws -> Controller
    {
        let store = try ControllerStore(path: directory.storePath)
        let endpoint = try UDPEndpoint(port: 0, queue: DispatchQueue(label: "test.controller"))
        var configuration = ControllerConfiguration(
            store: store, transport: endpoint, discovery: .none, trustStore: try DefaultPAATrustStore.make())
        let path = directory.storePath
        configuration.checkpoint = { reached in if reached == point { action(path) } }
        return try await Controller.open(configuration)
    }

    static func delete(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }

    static func replace(_ path: String) {
        let other = path + ".other"
        _ = try? ControllerStore(path: other)
        rename(other, path)
    }

    @Test(
        "deleted or replaced before AddNOC, or before the node is stored: storage error, device rolled back",
        arguments: [
            (CommissioningCheckpoint.after(.csrRequest), true, CommissioningStage.addNOC),
            (.after(.csrRequest), false, .addNOC),
            (.after(.commissioningComplete), true, .storeNode),
            (.after(.readDeviceTypes), false, .storeNode),
        ])
    func rolledBack(point: CommissioningCheckpoint, deleted: Bool, failingStage: CommissioningStage) async throws {
        let device = try await VirtualDevices.start(in: directory, name: "lamp")
        let controller = try await controller(at: point, deleted ? Self.delete : Self.replace)
        let error = await #expect(throws: ControllerError.self) {
            try await controller.commission(device.request(nodeID: NodeID(1)))
        }
        #expect(error?.category == .storage)
        if case .commissioning(let stage, let failure)? = error {
            #expect(stage == failingStage)
            #expect(failure.error == .storage(.storeFileChanged(path: directory.storePath, deleted: deleted)))
        } else {
            Issue.record("not a stage failure: \(String(describing: error))")
        }
        #expect(await device.fabrics().isEmpty)
        #expect(await device.isCommissionable())
        await controller.stop()
        await device.stop()
    }
}
