import MatterClusters
import MatterController
import MatterCore
import MatterDevice
import MatterInteraction
import MatterOnboarding
import MatterSecureChannel
import MatterStorage
import MatterTLV
import MatterTestSupport
import MatterTransport
import Synchronization
import Testing

@Suite("Operational API on a commissioned virtual device")
struct OperationalTests {
    let node = NodeID(5)
    let light = EndpointID(1)
    /// Level Control's CurrentFrequency and MoveToClosestFrequency: the Frequency feature, which no
    /// light has.
    let currentFrequency = AttributeID(0x0004)
    let moveToClosestFrequency = CommandID(0x08)

    /// A dimmable light commissioned as node 5.
    func commissioned(_ bed: TestBed) async throws -> (VirtualDevice, Controller) {
        let device = try await bed.device()
        let controller = try await bed.controller()
        _ = try await controller.commission(device.request(nodeID: node))
        return (device, controller)
    }

    @Test("null is a value; a missing attribute, cluster or endpoint is 'unsupported'")
    func readsValuesNullsAndUnsupported() async throws {
        let bed = try TestBed()
        let (device, controller) = try await commissioned(bed)
        #expect(
            try await controller.readAttribute(node, endpoint: light, cluster: .onOff, attribute: .OnOff.onOff)
                == .value(.bool(false)))
        let startUp = try await controller.readAttribute(
            node, endpoint: light, cluster: .onOff, attribute: .OnOff.startUpOnOff)
        #expect(startUp == .value(.null))
        #expect(startUp.isNull && startUp.isSupported)
        let frequency = try await controller.readAttribute(
            node, endpoint: light, cluster: .levelControl, attribute: currentFrequency)
        #expect(frequency == .unsupported(.unsupportedAttribute))
        #expect(!frequency.isNull && !frequency.isSupported)
        #expect(
            try await controller.readAttribute(
                node, endpoint: light, cluster: .colorControl, attribute: .ColorControl.colorMode)
                == .unsupported(.unsupportedCluster))
        #expect(
            try await controller.readAttribute(node, endpoint: EndpointID(9), cluster: .onOff, attribute: .OnOff.onOff)
                == .unsupported(.unsupportedEndpoint))
        await controller.stop()
        await device.stop()
    }

    @Test(
        "supports() reads AcceptedCommandList; attribute support comes from AttributeList and the schema's nullability")
    func support() async throws {
        let bed = try TestBed()
        let (device, controller) = try await commissioned(bed)
        #expect(try await controller.supports(node, endpoint: light, cluster: .onOff, command: .OnOff.toggle))
        #expect(try await controller.supports(node, endpoint: light, cluster: .onOff, command: .OnOff.offWithEffect))
        #expect(try await controller.supports(node, endpoint: light, cluster: .onOff, command: .OnOff.onWithTimedOff))
        #expect(
            !(try await controller.supports(
                node, endpoint: light, cluster: .levelControl, command: moveToClosestFrequency)))
        #expect(
            !(try await controller.supports(node, endpoint: light, cluster: .doorLock, command: .DoorLock.lockDoor)))
        #expect(
            try await controller.attributeSupport(
                node, endpoint: light, cluster: .onOff, attribute: .OnOff.startUpOnOff)
                == .supported(nullable: true))
        #expect(
            try await controller.attributeSupport(node, endpoint: light, cluster: .onOff, attribute: .OnOff.onOff)
                == .supported(nullable: false))
        #expect(
            try await controller.attributeSupport(
                node, endpoint: light, cluster: .levelControl, attribute: currentFrequency)
                == .unsupported)
        #expect(
            try await controller.attributeSupport(
                node, endpoint: light, cluster: .colorControl, attribute: .ColorControl.colorMode)
                == .unsupported)
        await controller.stop()
        await device.stop()
    }

    @Test("writes reach the device; a refused write is an IM status error")
    func writes() async throws {
        let bed = try TestBed()
        let (device, controller) = try await commissioned(bed)
        try await controller.writeAttribute(
            node, endpoint: light, cluster: .onOff, attribute: .OnOff.onTime, value: .unsigned(42))
        #expect(await device.state().onTime == 42)
        let refused = await #expect(throws: ControllerError.self) {
            try await controller.writeAttribute(
                node, endpoint: light, cluster: .onOff, attribute: .OnOff.onOff, value: .bool(true))
        }
        #expect(refused?.category == .status)
        if case .status(let status, _)? = refused { #expect(status.status == .unsupportedWrite) }
        let unsupported = await #expect(throws: ControllerError.self) {
            try await controller.invoke(node, endpoint: light, cluster: .levelControl, command: moveToClosestFrequency)
        }
        #expect(unsupported?.category == .status)
        if case .status(let status, _)? = unsupported { #expect(status.status == .unsupportedCommand) }
        await controller.stop()
        await device.stop()
    }

    @Test("a subscription primes with the current value and reports changes")
    func subscribes() async throws {
        let bed = try TestBed()
        let (device, controller) = try await commissioned(bed)
        let reports = Mutex<[SubscriptionReport]>([])
        let path = ConcreteAttributePath(endpoint: light, cluster: .onOff, attribute: .OnOff.onOff)
        let subscription = try await controller.subscribe(
            node, paths: [AttributePathIB(path)], minInterval: 0, maxInterval: 10,
            onReport: { report in reports.withLock { $0.append(report) } })
        #expect(subscription.priming.report(for: path)?.value == .bool(false))
        try await controller.on(node)
        var waited = 0
        while reports.withLock({ $0.isEmpty }), waited < 500 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        #expect(reports.withLock { $0.first?.result.report(for: path)?.value } == .bool(true))
        await controller.cancel(subscription)
        await controller.stop()
        await device.stop()
    }

    @Test("another controller on the same store reaches the node with its own CASE session")
    func secondController() async throws {
        let bed = try TestBed()
        let (device, controller) = try await commissioned(bed)
        await controller.stop()
        let second = try await bed.controller()
        #expect(second.fabricID == controller.fabricID)
        // No DNS-SD here: the store's last address is used.
        try await second.on(node)
        #expect(await device.state().onOff == true)
        await second.stop()
        await device.stop()
    }

    @Test("when the device forgets the session, the next command resumes the CASE session and succeeds")
    func reconnectsAfterDeviceDropsSession() async throws {
        let bed = try TestBed()
        let (device, controller) = try await commissioned(bed)
        try await controller.on(node)
        let before = await device.statistics().caseEstablishment
        await device.dropSecureSessions()
        try await controller.off(node)
        #expect(await device.state().onOff == false)
        // The new session was a resumption (Sigma2_Resume), not a full handshake.
        let after = await device.statistics().caseEstablishment
        #expect(after.resumed == before.resumed + 1)
        #expect(after.established == before.established)
        await controller.stop()
        await device.stop()
    }

    @Test("describe lists endpoints, device types, clusters, commands and attributes, and records device types")
    func describes() async throws {
        let bed = try TestBed()
        let (device, controller) = try await commissioned(bed)
        let description = try await controller.describe(node)
        #expect(description.endpoints.map(\.endpoint) == [EndpointID(0), light])
        let root = try #require(description.endpoints.first)
        #expect(root.deviceTypes.map(\.deviceType) == [DeviceTypeID(0x0016)])
        #expect(root.parts == [light])
        let lamp = try #require(description.endpoints.last)
        #expect(lamp.deviceTypes.map(\.deviceType) == [DeviceTypeID(0x0101)])
        #expect(
            lamp.clusters.map(\.cluster)
                == [.identify, .groups, .scenesManagement, .onOff, .levelControl, .descriptor].sorted())
        let onOff = try #require(lamp.clusters.first { $0.cluster == .onOff })
        #expect(
            onOff.acceptedCommands == [
                .OnOff.off, .OnOff.on, .OnOff.toggle, .OnOff.offWithEffect, .OnOff.onWithRecallGlobalScene,
                .OnOff.onWithTimedOff,
            ])
        #expect(onOff.featureMap == 1)
        #expect(onOff.attributes.contains(.OnOff.startUpOnOff))
        await controller.stop()
        await device.stop()
    }

    @Test("an enhanced commissioning window lets a second fabric commission the device with the new code")
    func commissioningWindow() async throws {
        let bed = try TestBed()
        let (device, controller) = try await commissioned(bed)
        let window = try await controller.openCommissioningWindow(node, timeout: 300)
        #expect(window.timeoutSeconds == 300)
        #expect(window.payload.vendorID == VendorID(0xFFF1))
        #expect(window.payload.productID == ProductID(0x8002))
        #expect(try OnboardingPayloadParser.parse(window.qrCode).payload == window.payload)
        #expect(try OnboardingPayloadParser.parse(window.manualCode).payload.passcode == window.payload.passcode)
        #expect(await device.state().enhancedWindowDiscriminator == window.payload.discriminator.longValue)

        let other = try TemporaryDirectory()
        let secondAdmin = try await bed.controller(storePath: other.storePath)
        #expect(
            secondAdmin.fabricID != controller.fabricID
                || secondAdmin.compressedFabricID != controller.compressedFabricID)
        _ = try await secondAdmin.commission(
            CommissioningRequest(
                locator: .address(device.directAddress), passcode: window.payload.passcode, nodeID: NodeID(77)))
        #expect(await device.state().committedFabrics.count == 2)
        try await secondAdmin.off(NodeID(77))
        try await controller.on(node)
        #expect(await device.state().onOff == true)
        await secondAdmin.stop()
        await controller.stop()
        await device.stop()
    }

    @Test("unpair removes our fabric from the device, then the node from the store")
    func unpairs() async throws {
        let bed = try TestBed()
        let (device, controller) = try await commissioned(bed)
        try await controller.unpair(node)
        let state = await device.state()
        #expect(state.fabrics.isEmpty && !state.failSafeArmed)
        #expect(try controller.store.node(node) == nil)
        let again = await #expect(throws: ControllerError.self) { try await controller.on(node) }
        #expect(again?.category == .unreachable || again?.category == .invalidArgument)
        await controller.stop()
        await device.stop()
    }

    @Test("unpair of an unreachable node fails unless forced")
    func unpairUnreachable() async throws {
        let bed = try TestBed()
        let (device, controller) = try await commissioned(bed)
        await device.stop()
        let error = await #expect(throws: ControllerError.self) { try await controller.unpair(node) }
        #expect(error?.category == .unreachable)
        #expect(try controller.store.node(node) != nil)
        try await controller.unpair(node, force: true)
        #expect(try controller.store.node(node) == nil)
        await controller.stop()
    }
}
