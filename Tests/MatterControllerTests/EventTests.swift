import Dispatch
import MatterClusters
import MatterController
import MatterCore
import MatterDataModel
import MatterDiscovery
import MatterInteraction
import MatterOnboarding
import MatterStorage
import MatterTLV
import MatterTestSupport
import MatterTransport
import Testing

@testable import MatterDevice

@Suite("Events read and subscribed by the controller from virtual devices")
struct EventTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    func controller() async throws -> Controller {
        let store = try ControllerStore(path: directory.storePath)
        let endpoint = try UDPEndpoint(port: 0, queue: DispatchQueue(label: "test.controller"))
        let configuration = ControllerConfiguration(
            store: store, transport: endpoint, discovery: .none, trustStore: try DefaultPAATrustStore.make())
        return try await Controller.open(configuration)
    }

    static let lockOperation = EventPathIB(
        endpoint: EndpointID(1), cluster: .doorLock, event: .DoorLock.lockOperation)

    @Test("LockOperation after a lock command: read with its fields named, event-min filters, subscribed live")
    func lockOperation() async throws {
        let lock = try await VirtualDevices.start("door-lock", in: directory, name: "lock")
        let controller = try await controller()
        _ = try await controller.commission(lock.request(nodeID: NodeID(31)))
        try await controller.lockDoor(NodeID(31))

        let read = try await controller.readEvents(NodeID(31), paths: [Self.lockOperation])
        let event = try #require(read.events.last)
        #expect(event.name == "LockOperation")
        #expect(event.priority == 2)
        #expect(event.path.event == .DoorLock.lockOperation)
        #expect(event.fields.first { $0.name == "LockOperationType" }?.value == .unsigned(0))
        if case .system = event.timestamp {} else { Issue.record("not a system timestamp: \(event.timestamp)") }

        let later = try await controller.readEvents(
            NodeID(31), paths: [Self.lockOperation], eventMin: event.eventNumber + 1)
        #expect(later.events.isEmpty)

        let (stream, continuation) = AsyncStream.makeStream(of: EventValue.self)
        let (subscription, priming) = try await controller.subscribe(
            NodeID(31), attributes: [], events: [Self.lockOperation], eventMin: event.eventNumber + 1,
            minInterval: 0, maxInterval: 10,
            onEvents: { result in for event in result.events { continuation.yield(event) } })
        #expect(priming.events.isEmpty)
        try await controller.unlockDoor(NodeID(31))
        var iterator = stream.makeAsyncIterator()
        let live = try #require(await iterator.next())
        #expect(live.eventNumber > event.eventNumber)
        #expect(live.fields.first { $0.name == "LockOperationType" }?.value == .unsigned(1))
        await controller.cancel(subscription)

        let unsupported = try await controller.readEvents(
            NodeID(31), paths: [EventPathIB(endpoint: EndpointID(1), cluster: .doorLock, event: EventID(0x77))])
        #expect(unsupported.statuses.map(\.status.status) == [.unsupportedEvent])
        await controller.stop()
        await lock.stop()
    }

    @Test("event numbers continue above the last one after the device restarts")
    func numbersSurviveRestart() async throws {
        let first = try await VirtualDevices.start("door-lock", in: directory, name: "lock")
        let port = first.port
        let controller = try await controller()
        _ = try await controller.commission(first.request(nodeID: NodeID(32)))
        try await controller.lockDoor(NodeID(32))
        let before = try await controller.readEvents(NodeID(32), paths: [EventPathIB()])
        let highest = try #require(before.events.map(\.eventNumber).max())
        await controller.stop()
        await first.stop()

        let second = try await VirtualDevices.start("door-lock", in: directory, name: "lock", port: port)
        let again = try await self.controller()
        await again.setAddress(second.directAddress, for: NodeID(32))
        let after = try await again.readEvents(NodeID(32), paths: [EventPathIB()])
        let startUp = try #require(after.events.last { $0.path.event == .BasicInformation.startUp })
        #expect(startUp.eventNumber > highest)
        #expect(startUp.priority == 2)
        await again.stop()
        await second.stop()
    }

    @Test("AccessControlEntryChanged after an ACL write is fabric-sensitive: its own fabric sees it, another does not")
    func aclChangeIsFabricSensitive() async throws {
        let device = try await VirtualDevices.start(in: directory, name: "shared")
        let controller = try await controller()
        _ = try await controller.commission(device.request(nodeID: NodeID(61)))
        let window = try await controller.openCommissioningWindow(NodeID(61))
        let other = try TemporaryDirectory()
        let second = try await Controller.open(
            ControllerConfiguration(
                store: try ControllerStore(path: other.storePath),
                transport: try UDPEndpoint(port: 0, queue: DispatchQueue(label: "test.second")), discovery: .none,
                trustStore: try DefaultPAATrustStore.make()))
        _ = try await second.commission(
            CommissioningRequest(
                locator: .address(device.directAddress), passcode: window.payload.passcode, nodeID: NodeID(62)))

        guard
            case .value(.array(let current)) = try await controller.readAttribute(
                NodeID(61), endpoint: .root, cluster: .accessControl, attribute: .AccessControl.acl)
        else {
            Issue.record("the ACL did not read as a list")
            return
        }
        let operate = AccessControlEntry(
            fabricIndex: 1, privilege: .operate, authMode: .case, subjects: [0x4242], targets: [])
        try await controller.writeAttribute(
            NodeID(61), endpoint: .root, cluster: .accessControl, attribute: .AccessControl.acl,
            value: .array(current.map { TLVElement($0.value) } + [TLVElement(operate.tlvValue())]))

        let path = EventPathIB(
            endpoint: .root, cluster: .accessControl, event: .AccessControl.accessControlEntryChanged)
        let own = try await controller.readEvents(NodeID(61), paths: [path])
        let added = try #require(own.events.last)
        #expect(added.name == "AccessControlEntryChanged")
        #expect(added.priority == 1)
        #expect(added.fields.first { $0.name == "ChangeType" }?.value == .unsigned(1))
        #expect(added.fields.first { $0.tag == 0xFE }?.value == .unsigned(1))
        #expect(added.fields.first { $0.name == "AdminNodeID" }?.value != .null)

        let foreign = try await second.readEvents(NodeID(62), paths: [path])
        #expect(foreign.events.isEmpty)
        #expect(foreign.statuses.isEmpty)
        let unfiltered = try await second.readEvents(NodeID(62), paths: [path], fabricFiltered: false)
        #expect(unfiltered.events.isEmpty)
        await second.stop()
        await controller.stop()
        await device.stop()
    }

    @Test("Leave when a fabric is removed: the remaining fabric reads it with the removed fabric's index")
    func leaveOnFabricRemoval() async throws {
        let device = try await VirtualDevices.start(in: directory, name: "leave")
        let controller = try await controller()
        _ = try await controller.commission(device.request(nodeID: NodeID(71)))
        let window = try await controller.openCommissioningWindow(NodeID(71))
        let other = try TemporaryDirectory()
        let second = try await Controller.open(
            ControllerConfiguration(
                store: try ControllerStore(path: other.storePath),
                transport: try UDPEndpoint(port: 0, queue: DispatchQueue(label: "test.leave")), discovery: .none,
                trustStore: try DefaultPAATrustStore.make()))
        _ = try await second.commission(
            CommissioningRequest(
                locator: .address(device.directAddress), passcode: window.payload.passcode, nodeID: NodeID(72)))
        let leave = EventPathIB(endpoint: .root, cluster: .basicInformation, event: .BasicInformation.leave)
        #expect(try await controller.readEvents(NodeID(71), paths: [leave]).events.isEmpty)

        try await second.unpair(NodeID(72))
        let events = try await controller.readEvents(NodeID(71), paths: [leave]).events
        #expect(events.count == 1)
        #expect(events.first?.fields.first { $0.tag == 0 }?.value == .unsigned(2))
        await second.stop()
        await controller.stop()
        await device.stop()
    }
}

extension EventTests {
    @Test("offline drops every datagram; online again, the controller's retransmission gets its answer")
    func offlineAndOnline() async throws {
        var configuration = VirtualDeviceConfiguration(
            deviceType: "on-off-light", storagePath: directory.path + "/offline.sqlite",
            pkiDirectory: TestPaths.pkiDirectory)
        configuration.port = 0
        configuration.advertise = false
        let host = try await DeviceHost.start(configuration)
        let controller = try await controller()
        _ = try await controller.commission(host.device.request(nodeID: NodeID(81)))

        #expect(await host.control(#"{"op":"offline"}"#).contains(#""online":false"#))
        let before = await host.device.statistics().transport.datagramsReceived
        let read = Task {
            try await controller.readAttribute(
                NodeID(81), endpoint: EndpointID(1), cluster: .onOff, attribute: .OnOff.onOff)
        }
        try await Task.sleep(for: .milliseconds(1500))  // the request and a retransmission or two go unanswered
        #expect(await host.device.statistics().transport.datagramsReceived == before)
        #expect(await host.control(#"{"op":"online"}"#).contains(#""online":true"#))
        let value = try await read.value
        #expect(value == .value(.bool(false)))
        #expect(await host.device.statistics().transport.datagramsReceived > before)
        await controller.stop()
        await host.stop()
    }
}
