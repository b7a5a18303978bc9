import Dispatch
import Foundation
import MatterClusters
import MatterController
import MatterCore
import MatterDevice
import MatterDiscovery
import MatterStorage
import MatterTLV
import MatterTestSupport
import MatterTransport
import Testing

/// Our commissioner against our virtual device over real UDP on loopback, with a direct address:
/// PASE, attestation against fixtures/pki, CSR, NOC, CASE, CommissioningComplete, then control.
@Suite("Virtual device commissioned and controlled over loopback UDP", .serialized)
struct DeviceCommissioningTests {
    static func device(_ workspace: TemporaryDirectory, type: String = "dimmable-light", port: UInt16 = 0) async throws
        -> VirtualDevice
    {
        var configuration = VirtualDeviceConfiguration(
            deviceType: type, storagePath: workspace.path + "/device.sqlite",
            pkiDirectory: TestPaths.pkiDirectory)
        configuration.port = port
        configuration.advertise = false
        return try await VirtualDevice.start(configuration)
    }

    static func controller(_ workspace: TemporaryDirectory) async throws -> Controller {
        let store = try ControllerStore(path: workspace.path + "/controller.sqlite")
        let endpoint = try UDPEndpoint(queue: DispatchQueue(label: "test.controller"))
        let configuration = ControllerConfiguration(
            store: store, transport: endpoint, discovery: .none,
            trustStore: try DefaultPAATrustStore.load(directory: TestPaths.pkiDirectory + "/paa-trust-store"))
        return try await Controller.open(configuration)
    }

    static func address(_ port: UInt16) throws -> DirectAddress {
        try DirectAddress(parsing: "127.0.0.1:\(port)")
    }

    @Test func commissionToggleAndRestart() async throws {
        let workspace = try TemporaryDirectory(prefix: "matter-device-tests")
        var device = try await Self.device(workspace)
        let port = device.port
        let controller = try await Self.controller(workspace)
        let result = try await controller.commission(
            CommissioningRequest(
                locator: .address(try Self.address(port)),
                passcode: 20_202_021, nodeID: NodeID(7)))
        #expect(result.node.nodeID == NodeID(7))
        let fabrics = await device.fabrics()
        #expect(fabrics.count == 1 && fabrics.first?.nodeID == NodeID(7))
        #expect(await device.isCommissionable() == false)

        try await controller.on(NodeID(7))
        var onOff = try await controller.readAttribute(
            NodeID(7), endpoint: EndpointID(1), cluster: .onOff,
            attribute: AttributeID(0x0000))
        #expect(onOff == .value(.bool(true)))
        try await controller.toggle(NodeID(7))
        onOff = try await controller.readAttribute(
            NodeID(7), endpoint: EndpointID(1), cluster: .onOff,
            attribute: AttributeID(0x0000))
        #expect(onOff == .value(.bool(false)))
        try await controller.moveToLevel(NodeID(7), level: 77, transitionTime: 0, withOnOff: true)
        let level = try await controller.readAttribute(
            NodeID(7), endpoint: EndpointID(1), cluster: .levelControl,
            attribute: AttributeID(0x0000))
        #expect(level == .value(.unsigned(77)))

        // Restart the device process: it comes back as the same commissioned node.
        await device.stop()
        device = try await Self.device(workspace, port: port)
        #expect(await device.fabrics().count == 1)
        #expect(await device.isCommissionable() == false)
        let restarted = try await Self.controller(workspace)
        await restarted.setAddress(try Self.address(port), for: NodeID(7))
        try await restarted.off(NodeID(7))
        onOff = try await restarted.readAttribute(
            NodeID(7), endpoint: EndpointID(1), cluster: .onOff,
            attribute: AttributeID(0x0000))
        #expect(onOff == .value(.bool(false)))
        await restarted.stop()
        await controller.stop()
        await device.stop()
    }

    @Test func wrongPasscodeLeavesTheDeviceCommissionable() async throws {
        let workspace = try TemporaryDirectory(prefix: "matter-device-tests")
        let device = try await Self.device(workspace)
        let controller = try await Self.controller(workspace)
        await #expect(throws: ControllerError.self) {
            try await controller.commission(
                CommissioningRequest(
                    locator: .address(try Self.address(device.port)),
                    passcode: 12_345_679, nodeID: NodeID(8)))
        }
        #expect(await device.isCommissionable())
        #expect(await device.fabrics().isEmpty)
        #expect(try controller.store.nodes().isEmpty)
        await controller.stop()
        await device.stop()
    }
}

/// Issue 35, cause 8: a device whose store lost part of its state refuses to start instead of serving
/// half of it (a fabric without its ACL would refuse every command UNSUPPORTED_ACCESS).
@Suite("Device on a damaged store")
struct DamagedDeviceStoreTests {
    @Test("a fabric stored without its ACL: the device does not start, and says the store is damaged")
    func fabricWithoutACL() async throws {
        let workspace = try TemporaryDirectory(prefix: "matter-device-tests")
        let device = try await DeviceCommissioningTests.device(workspace)
        let controller = try await DeviceCommissioningTests.controller(workspace)
        _ = try await controller.commission(
            CommissioningRequest(
                locator: .address(try DeviceCommissioningTests.address(device.port)), passcode: 20_202_021,
                nodeID: NodeID(7)))
        await controller.stop()
        await device.stop()
        let path = workspace.path + "/device.sqlite"
        do {
            let store = try KeyValueStore(path: path)
            var removed = 0
            for namespace in try store.namespaces(withPrefix: "") where try store.remove("acl.1", namespace: namespace)
            {
                removed += 1
            }
            #expect(removed == 1)
        }
        let error = await #expect(throws: DeviceError.self) { try await DeviceCommissioningTests.device(workspace) }
        #expect(
            error?.description.contains("store damaged: \(path) holds fabric 1 without its access control list")
                == true,
            "\(String(describing: error))")
    }
}
