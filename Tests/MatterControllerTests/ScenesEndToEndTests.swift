import Dispatch
import MatterClusters
import MatterController
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterOnboarding
import MatterStorage
import MatterTLV
import MatterTestSupport
import MatterTransport
import Testing

@testable import MatterDevice

/// Scenes Management on a real virtual device over loopback UDP: two fabrics, their own scenes, a
/// removed fabric's scenes gone, the rest kept across a restart of the device (its SQLite store).
@Suite("Scenes end to end")
struct ScenesEndToEndTests {
    typealias C = CommandID.ScenesManagement
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    func controller(_ storePath: String) async throws -> Controller {
        let store = try ControllerStore(path: storePath)
        let endpoint = try UDPEndpoint(port: 0, queue: DispatchQueue(label: "test.scenes-controller"))
        let configuration = ControllerConfiguration(
            store: store, transport: endpoint, discovery: .none, trustStore: try DefaultPAATrustStore.make())
        return try await Controller.open(configuration)
    }

    /// The fields of a scenes response command.
    static func response(_ result: InvokeResult) -> TLVValue? {
        if case .response(_, let fields) = result { return fields }
        return nil
    }

    static func status(_ result: InvokeResult) -> UInt64? {
        response(result)?.members?.first { $0.tag == .context(0) }?.uint
    }

    static func key(_ group: UInt16, _ scene: UInt8) -> [TLVElement] {
        [
            TLVElement(tag: .context(0), .unsigned(UInt64(group))),
            TLVElement(tag: .context(1), .unsigned(UInt64(scene))),
        ]
    }

    func scenes(_ controller: Controller, _ node: NodeID, _ command: CommandID, _ fields: [TLVElement]) async throws
        -> InvokeResult
    {
        try await controller.invoke(
            node, endpoint: EndpointID(1), cluster: .scenesManagement, command: command, fields: fields)
    }

    @Test("two fabrics store their own scenes; RemoveFabric takes one's; the other's survive a restart and recall")
    func twoFabricsRemovalAndRestart() async throws {
        var device = try await VirtualDevices.start("extended-color-light", in: directory, name: "scenes")
        let port = device.port
        let first = try await controller(directory.storePath)
        let firstNode = NodeID(0x31)
        _ = try await first.commission(device.request(nodeID: firstNode))
        let window = try await first.openCommissioningWindow(firstNode)
        let otherDirectory = try TemporaryDirectory()
        let second = try await controller(otherDirectory.storePath)
        let secondNode = NodeID(0x32)
        _ = try await second.commission(device.request(nodeID: secondNode, passcode: window.payload.passcode))

        try await first.on(firstNode)
        try await first.moveToLevel(firstNode, level: 77, withOnOff: false)
        #expect(Self.status(try await scenes(first, firstNode, C.storeScene, Self.key(0, 1))) == 0)
        // The second fabric sees none of it, and stores a scene of its own under the same key.
        #expect(Self.status(try await scenes(second, secondNode, C.viewScene, Self.key(0, 1))) == 0x8B)  // NOT_FOUND
        #expect(Self.status(try await scenes(second, secondNode, C.storeScene, Self.key(0, 1))) == 0)
        let info = try await first.readAttribute(
            firstNode, endpoint: EndpointID(1), cluster: .scenesManagement,
            attribute: .ScenesManagement.fabricSceneInfo)
        #expect(info.value?.members?.count == 1)  // fabric-filtered: ours only
        #expect(info.value?.members?.first?[context: 0]?.uint == 1)  // SceneCount
        #expect(info.value?.members?.first?[context: 3]?.bool == true)  // SceneValid

        // The second administrator leaves: its scenes go with its fabric.
        try await second.unpair(secondNode)
        let model = device.dataModel
        let fabricsWithScenes = await device.node.perform { node in
            model.value(in: node).cluster(ScenesManagementServer.self, on: EndpointID(1))?.table.fabrics ?? []
        }
        #expect(fabricsWithScenes.count == 1)

        // Restart the device on its store: the first fabric's scene is still there and recalls.
        await device.stop()
        device = try await VirtualDevices.start("extended-color-light", in: directory, name: "scenes", port: port)
        await first.closeSession(firstNode)
        try await first.moveToLevel(firstNode, level: 200, withOnOff: false)
        #expect(await device.deviceValue(1, .levelControl, .LevelControl.currentLevel) == .unsigned(200))
        let recalled = try await scenes(first, firstNode, C.recallScene, Self.key(0, 1))
        #expect(recalled.isSuccess)
        #expect(await device.deviceValue(1, .levelControl, .LevelControl.currentLevel) == .unsigned(77))

        await second.stop()
        await first.stop()
        await device.stop()
    }
}
