import Dispatch
import MatterClusters
import MatterController
import MatterCore
import MatterCredentials
import MatterDevice
import MatterDiscovery
import MatterInteraction
import MatterOnboarding
import MatterStorage
import MatterTLV
import MatterTestSupport
import MatterTransport
import Testing

/// Our commissioner against our virtual devices (MatterDevice) over loopback UDP.
@Suite("Controller against the virtual devices")
struct VirtualDeviceTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    func controller(trustStore: PAATrustStore? = nil, browse: InMemoryDNSSDNetwork? = nil, storePath: String? = nil)
        async throws -> Controller
    {
        let store = try ControllerStore(path: storePath ?? directory.storePath)
        let endpoint = try UDPEndpoint(port: 0, queue: DispatchQueue(label: "test.controller"))
        var configuration = ControllerConfiguration(
            store: store, transport: endpoint,
            discovery: browse.map { .browser($0.makeHost(hostName: "controller.local", addresses: [])) } ?? .none,
            trustStore: try trustStore ?? DefaultPAATrustStore.make())
        configuration.discoveryTimeout = .seconds(5)
        return try await Controller.open(configuration)
    }

    @Test("a dimmable light: commissioned by address, then on/off/toggle/level, each seen on the device")
    func dimmableLight() async throws {
        let device = try await VirtualDevices.start("dimmable-light", in: directory, name: "lamp")
        let controller = try await controller()
        let events = EventRecorder()
        let result = try await controller.commission(device.request(nodeID: NodeID(11)), progress: events.record)
        #expect(events.succeeded == CommissioningStage.allCases)
        #expect(result.node.deviceTypes.map(\.deviceType).contains(DeviceTypeID(0x0101)))
        #expect(await device.fabrics().map(\.nodeID) == [NodeID(11)])
        #expect(await device.isCommissionable() == false)

        let node = NodeID(11)
        try await controller.on(node)
        #expect(await device.deviceValue(1, .onOff, .OnOff.onOff) == .bool(true))
        try await controller.toggle(node)
        #expect(await device.deviceValue(1, .onOff, .OnOff.onOff) == .bool(false))
        try await controller.moveToLevel(node, level: 200, withOnOff: true)
        #expect(await device.deviceValue(1, .levelControl, .LevelControl.currentLevel) == .unsigned(200))
        #expect(await device.deviceValue(1, .onOff, .OnOff.onOff) == .bool(true))
        try await controller.offWithEffect(node, effect: 0, variant: 1)
        #expect(await device.deviceValue(1, .onOff, .OnOff.onOff) == .bool(false))
        try await controller.writeAttribute(
            node, endpoint: EndpointID(1), cluster: .onOff, attribute: .OnOff.startUpOnOff, value: .unsigned(1))
        #expect(await device.deviceValue(1, .onOff, .OnOff.startUpOnOff) == .unsigned(1))
        try await controller.writeAttribute(
            node, endpoint: EndpointID(1), cluster: .onOff, attribute: .OnOff.startUpOnOff, value: .null)
        // Null is a value; a cluster the light does not have is another answer.
        #expect(
            try await controller.readAttribute(
                node, endpoint: EndpointID(1), cluster: .onOff, attribute: .OnOff.startUpOnOff)
                == .value(.null))
        #expect(
            try await controller.readAttribute(
                node, endpoint: EndpointID(1), cluster: .colorControl, attribute: .ColorControl.colorTemperatureMireds)
                == .unsupported(.unsupportedCluster))
        #expect(try await controller.supports(node, endpoint: EndpointID(1), cluster: .onOff, command: .OnOff.toggle))
        #expect(
            !(try await controller.supports(
                node, endpoint: EndpointID(1), cluster: .doorLock, command: .DoorLock.lockDoor)))
        #expect(
            try await controller.attributeSupport(
                node, endpoint: EndpointID(1), cluster: .levelControl, attribute: .LevelControl.currentLevel)
                == .supported(nullable: true))
        let description = try await controller.describe(node)
        #expect(description.endpoints.map(\.endpoint.rawValue) == [0, 1])
        await controller.stop()
        await device.stop()
    }

    @Test("a colour-temperature light takes MoveToColorTemperature; a door lock locks and unlocks (timed)")
    func colourLightAndLock() async throws {
        let light = try await VirtualDevices.start("color-temperature-light", in: directory, name: "ct")
        let lock = try await VirtualDevices.start("door-lock", in: directory, name: "lock")
        let controller = try await controller()
        _ = try await controller.commission(light.request(nodeID: NodeID(21)))
        _ = try await controller.commission(lock.request(nodeID: NodeID(22)))
        try await controller.on(NodeID(21))
        try await controller.moveToColorTemperature(NodeID(21), mireds: 333)
        #expect(await light.deviceValue(1, .colorControl, .ColorControl.colorTemperatureMireds) == .unsigned(333))
        try await controller.lockDoor(NodeID(22))
        #expect(await lock.deviceValue(1, .doorLock, .DoorLock.lockState) == .unsigned(1))
        try await controller.unlockDoor(NodeID(22))
        #expect(await lock.deviceValue(1, .doorLock, .DoorLock.lockState) == .unsigned(2))
        await controller.stop()
        await light.stop()
        await lock.stop()
    }

    @Test("QR code and manual code find the device on DNS-SD, and its operational record is resolved")
    func discovery() async throws {
        let network = InMemoryDNSSDNetwork()
        func host(_ name: String) -> InMemoryDNSSD {
            network.makeHost(hostName: "\(name).local", addresses: [DNSSDAddress("127.0.0.1")].compactMap { $0 })
        }
        let first = try await VirtualDevices.start(in: directory, name: "qr", discriminator: 1001, dnssd: host("qr"))
        let second = try await VirtualDevices.start(
            "on-off-plug", in: directory, name: "manual", discriminator: 0x7A5, dnssd: host("manual"))
        let controller = try await controller(browse: network)
        let qr = try OnboardingPayloadParser.parse(try SetupQRCode.encode(first.setupPayload)).payload
        let byQR = try await controller.commission(CommissioningRequest(payload: qr))
        #expect(await first.fabrics().map(\.nodeID) == [byQR.node.nodeID])
        let manual = try OnboardingPayloadParser.parse(try ManualPairingCode.encode(second.setupPayload)).payload
        #expect(manual.discriminator == .short(0x7))
        let byManual = try await controller.commission(CommissioningRequest(payload: manual, nodeID: NodeID(40)))
        #expect(byManual.node.productID == ProductID(0x8005))
        #expect(await second.fabrics().map(\.nodeID) == [NodeID(40)])
        // A new controller resolves the node's _matter._tcp record (no address known in advance).
        await controller.stop()
        let other = try await self.controller(browse: network)
        try await other.toggle(NodeID(40))
        #expect(await second.deviceValue(1, .onOff, .OnOff.onOff) == .bool(true))
        await other.stop()
        await first.stop()
        await second.stop()
    }

    @Test("untrusted PAA and vendor mismatch fail attestation; the device stays commissionable, nothing is stored")
    func attestationFailures() async throws {
        let untrusted = try await VirtualDevices.start(in: directory, name: "untrusted")
        let sdkOnly = try PAATrustStore(
            certificates: [try PEM.decode(CommissioningTests.sdkTestPAAFFF1, label: PEM.certificateLabel)])
        let strict = try await controller(trustStore: sdkOnly)
        let paa = await #expect(throws: ControllerError.self) {
            try await strict.commission(untrusted.request(nodeID: NodeID(31)))
        }
        #expect(paa?.category == .attestation)
        #expect(await untrusted.isCommissionable())
        #expect(await untrusted.fabrics().isEmpty)
        await strict.stop()

        let mismatched = try await VirtualDevices.start(in: directory, name: "mismatch", vendorID: VendorID(0xFFF2))
        let controller = try await controller()
        let vendor = await #expect(throws: ControllerError.self) {
            try await controller.commission(mismatched.request(nodeID: NodeID(32)))
        }
        #expect(vendor?.category == .attestation)
        if case .attestation(let code, _)? = vendor?.underlying { #expect(code == 604) }
        #expect(await mismatched.isCommissionable())
        #expect(await mismatched.fabrics().isEmpty)
        #expect(try controller.store.nodes().isEmpty)

        // The untrusted one is commissionable again, by a controller that trusts our PAA.
        _ = try await controller.commission(untrusted.request(nodeID: NodeID(31)))
        #expect(await untrusted.fabrics().map(\.nodeID) == [NodeID(31)])
        await controller.stop()
        await untrusted.stop()
        await mismatched.stop()
    }

    @Test("a second administrator joins through an enhanced window; unpair removes our fabric only")
    func secondAdministratorAndUnpair() async throws {
        let device = try await VirtualDevices.start(in: directory, name: "shared")
        let controller = try await controller()
        _ = try await controller.commission(device.request(nodeID: NodeID(51)))
        let window = try await controller.openCommissioningWindow(NodeID(51))
        let other = try TemporaryDirectory()
        let second = try await self.controller(storePath: other.storePath)
        _ = try await second.commission(
            CommissioningRequest(
                locator: .address(device.directAddress), passcode: window.payload.passcode, nodeID: NodeID(52)))
        #expect(await device.fabrics().count == 2)
        try await second.on(NodeID(52))
        try await controller.unpair(NodeID(51))
        #expect(await device.fabrics().map(\.nodeID) == [NodeID(52)])
        #expect(try controller.store.node(NodeID(51)) == nil)
        try await second.off(NodeID(52))
        #expect(await device.deviceValue(1, .onOff, .OnOff.onOff) == .bool(false))
        await second.stop()
        await controller.stop()
        await device.stop()
    }

    @Test("a group of 5 with one device stopped succeeds and reports it; with all stopped it fails")
    func groupOfFive() async throws {
        let controller = try await controller()
        try controller.store.createGroup("all")
        var devices: [VirtualDevice] = []
        for index in 1...5 {
            let device = try await VirtualDevices.start(in: directory, name: "member\(index)")
            _ = try await controller.commission(device.request(nodeID: NodeID(UInt64(60 + index))))
            try controller.store.addToGroup("all", nodeID: NodeID(UInt64(60 + index)), endpoint: EndpointID(1))
            devices.append(device)
        }
        await devices[2].stop()
        let result = try await controller.forEachMember(of: "all") { controller, member throws(ControllerError) in
            try await controller.on(member.nodeID, endpoint: member.endpoint)
        }
        #expect(result.successCount == 4)
        #expect(result.failures.map(\.member.nodeID) == [NodeID(63)])
        for (index, device) in devices.enumerated() where index != 2 {
            #expect(await device.deviceValue(1, .onOff, .OnOff.onOff) == .bool(true))
        }
        for device in devices { await device.stop() }
        let error = await #expect(throws: ControllerError.self) {
            try await controller.forEachMember(of: "all") { controller, member throws(ControllerError) in
                try await controller.off(member.nodeID, endpoint: member.endpoint)
            }
        }
        #expect(error?.category == .unreachable)
        await controller.stop()
    }
}
