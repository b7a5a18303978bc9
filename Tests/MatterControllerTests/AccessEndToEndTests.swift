import Dispatch
import MatterClusters
import MatterController
import MatterCore
import MatterCredentials
import MatterCrypto
import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterSecureChannel
import MatterStorage
import MatterTLV
import MatterTestSupport
import MatterTransport
import Synchronization
import Testing

/// Hostile and unprivileged peers against a real virtual device on loopback UDP: a node of another
/// fabric, an expired NOC, a NOC from a foreign root, replayed datagrams and a subject with Operate
/// only. Each is refused with the status the spec gives, logged by the device, and leaves the device
/// working for its administrator.
@Suite("Access: foreign fabrics, bad NOCs, replays and non-admin subjects", .serialized)
struct AccessEndToEndTests {
    let directory: TemporaryDirectory
    let node = NodeID(0x21)

    init() throws { directory = try TemporaryDirectory() }

    /// A light commissioned by our controller as `node`, plus the fabric the controller stored.
    func commissionedLight() async throws -> (VirtualDevice, Controller, ControllerFabric) {
        let device = try await VirtualDevices.start("on-off-light", in: directory, name: "light")
        let store = try ControllerStore(path: directory.storePath)
        let endpoint = try UDPEndpoint(port: 0, queue: DispatchQueue(label: "test.admin"))
        let controller = try await Controller.open(
            ControllerConfiguration(
                store: store, transport: endpoint, discovery: .none, trustStore: try DefaultPAATrustStore.make()))
        _ = try await controller.commission(device.request(nodeID: node))
        let fabric = try #require(try store.fabric())
        return (device, controller, fabric)
    }

    /// CASE credentials for `nodeID` with a NOC from `authority`, presented for `fabric` (whose root
    /// and IPK pick the device's fabric in Sigma1).
    func credentials(
        _ nodeID: NodeID, issuedBy authority: FabricAuthority, for fabric: ControllerFabric,
        validity: MatterCertificateValidity = .default
    ) throws -> CASECredentials {
        let key = try P256PrivateKey()
        let noc = try authority.issueNOC(publicKey: key.publicKey, nodeID: nodeID, validity: validity)
        let root = try MatterCertificate(tlv: fabric.rootCertificate)
        return CASECredentials(
            fabricIndex: 1, fabricID: fabric.fabricID, nodeID: nodeID, rcac: fabric.rootCertificate,
            rootPublicKey: root.publicKey, icac: nil, noc: noc.tlvEncoded, operationalKey: key,
            ipkEpochKeys: [fabric.ipkEpochKey])
    }

    func fabricAuthority(_ fabric: ControllerFabric) throws -> FabricAuthority {
        try FabricAuthority(
            fabricID: fabric.fabricID, rootKey: try P256PrivateKey(rawRepresentation: fabric.rootCAPrivateKey),
            rootCertificate: try MatterCertificate(tlv: fabric.rootCertificate))
    }

    /// A second, unrelated fabric with the same fabric ID: its root signs whatever it likes.
    func foreignAuthority(_ fabric: ControllerFabric) throws -> FabricAuthority {
        try FabricAuthority.create(fabricID: fabric.fabricID, rcacID: 1)
    }

    func isOn(_ device: VirtualDevice) async -> Bool? {
        if case .bool(let on) = await device.deviceValue(1, .onOff, .OnOff.onOff) { return on }
        return nil
    }

    @Test("a node of another fabric gets NO_SHARED_TRUST_ROOTS; the device logs it and keeps serving its admin")
    func anotherFabric() async throws {
        let log = try LogCapture.start()
        let (device, controller, _) = try await commissionedLight()
        let other = try FabricAuthority.create(fabricID: FabricID(0xDEAD_BEEF), rcacID: 7)
        let otherFabric = ControllerFabric(
            fabricID: other.fabricID, rootCAPrivateKey: try other.rootKey.rawRepresentation(),
            rootCertificate: other.rootCertificate.tlvEncoded, ipkEpochKey: Array(repeating: 0x5A, count: 16),
            controllerNodeID: NodeID(112_233), nextNodeID: NodeID(1), vendorID: .testVendor1, createdAt: 0)
        let peer = try await RawClient.start()
        await #expect(throws: SecureChannelError.noSharedTrustRoots) {
            _ = try await peer.connect(
                device, nodeID: node, credentials: try credentials(NodeID(112_233), issuedBy: other, for: otherFabric))
        }
        #expect(await log.eventuallyContains("CASE failed", "no shared trust roots"))
        try await controller.toggle(node)
        #expect(await isOn(device) == true)
        await peer.stop()
        await controller.stop()
        await device.stop()
        log.stop()
    }

    @Test("an expired NOC and a NOC from a foreign root are refused at Sigma3 with INVALID_PARAMETER, and logged")
    func expiredAndForeignNOCs() async throws {
        let log = try LogCapture.start()
        let (device, controller, fabric) = try await commissionedLight()
        let expired = MatterCertificateValidity(
            notBefore: MatterEpoch.seconds(year: 2021, month: 1, day: 1),
            notAfter: MatterEpoch.seconds(year: 2022, month: 1, day: 1))
        let invalidParameter = SecureChannelError.peerReportedFailure(
            StatusReport(generalCode: .failure, protocolCode: StatusReport.SecureChannelCode.invalidParameter))

        let expiredPeer = try await RawClient.start()
        await #expect(throws: invalidParameter) {
            _ = try await expiredPeer.connect(
                device, nodeID: node,
                credentials: try credentials(
                    NodeID(112_233), issuedBy: try fabricAuthority(fabric), for: fabric, validity: expired))
        }
        #expect(await log.eventuallyContains("CASE failed", "expired"))

        let foreignPeer = try await RawClient.start()
        await #expect(throws: invalidParameter) {
            _ = try await foreignPeer.connect(
                device, nodeID: node,
                credentials: try credentials(NodeID(112_233), issuedBy: try foreignAuthority(fabric), for: fabric))
        }
        #expect(await log.eventuallyContains("CASE failed", "authority key ID is not its issuer's"))
        // No half-open session with either peer (the count of all sessions is no measure: the
        // commissioning's PASE session may still be closing).
        let refusedPorts: Set = [expiredPeer.node.port, foreignPeer.node.port]
        #expect(await device.node.secureSessionList.allSatisfy { !refusedPorts.contains($0.peerAddress.port) })

        try await controller.toggle(node)
        #expect(await isOn(device) == true)
        await expiredPeer.stop()
        await foreignPeer.stop()
        await controller.stop()
        await device.stop()
        log.stop()
    }

    @Test("replayed datagrams of an invoke are dropped as duplicates: the light toggles once, counters say why")
    func replay() async throws {
        let (device, controller, fabric) = try await commissionedLight()
        let peer = try await RawClient.start()
        let session = try await peer.connect(
            device, nodeID: node,
            credentials: try credentials(NodeID(112_233), issuedBy: try fabricAuthority(fabric), for: fabric))
        let before = peer.transport.sentCount
        let result = try await peer.client.invoke(
            CommandRequest(path: ConcreteCommandPath(endpoint: EndpointID(1), cluster: .onOff, command: .OnOff.toggle)),
            session: session)
        #expect(result == .status(.success))
        #expect(await isOn(device) == true)
        let invokeDatagrams = peer.transport.sent(since: before)
        #expect(!invokeDatagrams.isEmpty)
        let duplicatesBefore = await device.node.statistics.droppedDuplicate

        for _ in 0..<3 {
            for datagram in invokeDatagrams { try peer.transport.replay(datagram) }
        }
        // The device answers the replayed InvokeRequest with an acknowledgement only; wait for the
        // count to settle instead of sleeping a fixed time.
        let expected = duplicatesBefore + 3 * invokeDatagrams.count
        for _ in 0..<200 where await device.node.statistics.droppedDuplicate < expected {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await device.node.statistics.droppedDuplicate == expected)
        #expect(await isOn(device) == true)  // not toggled again

        // After the session is gone, the same bytes name an unknown session.
        await controller.closeSession(node)
        let unknownBefore = await device.node.statistics.droppedUnknownSession
        try await peer.closeSessionOnDevice(device, session)
        for datagram in invokeDatagrams { try peer.transport.replay(datagram) }
        for _ in 0..<200
        where await device.node.statistics.droppedUnknownSession < unknownBefore + invokeDatagrams.count {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await device.node.statistics.droppedUnknownSession == unknownBefore + invokeDatagrams.count)
        #expect(await isOn(device) == true)
        await peer.stop()
        await controller.stop()
        await device.stop()
    }

    @Test("a subject with Operate may toggle but not write NodeLabel or the ACL; without an entry it may do nothing")
    func nonAdminSubject() async throws {
        let log = try LogCapture.start()
        let (device, controller, fabric) = try await commissionedLight()
        let operatorNode = NodeID(0x4242)
        let operatorCredentials = try credentials(operatorNode, issuedBy: try fabricAuthority(fabric), for: fabric)
        let toggle = CommandRequest(
            path: ConcreteCommandPath(endpoint: EndpointID(1), cluster: .onOff, command: .OnOff.toggle))
        let nodeLabel = ConcreteAttributePath(
            endpoint: EndpointID(0), cluster: .basicInformation, attribute: .BasicInformation.nodeLabel)
        let acl = ConcreteAttributePath(endpoint: EndpointID(0), cluster: .accessControl, attribute: .AccessControl.acl)

        // On the fabric but in no ACL entry: CASE works (it proves fabric membership), access does not.
        let stranger = try await RawClient.start()
        let strangerSession = try await stranger.connect(device, nodeID: node, credentials: operatorCredentials)
        #expect(
            try await stranger.client.invoke(toggle, session: strangerSession) == .status(StatusIB(.unsupportedAccess)))
        #expect(await isOn(device) == false)
        #expect(await log.eventuallyContains("access denied", "0x4242", "invoke"))
        await stranger.stop()

        // The administrator grants Operate to that node.
        guard
            case .value(.array(let current)) = try await controller.readAttribute(
                node, endpoint: EndpointID(0), cluster: .accessControl, attribute: .AccessControl.acl)
        else {
            Issue.record("the ACL did not read as a list")
            return
        }
        let operate = AccessControlEntry(
            fabricIndex: 1, privilege: .operate, authMode: .case, subjects: [operatorNode.rawValue], targets: [])
        try await controller.writeAttribute(
            node, endpoint: EndpointID(0), cluster: .accessControl, attribute: .AccessControl.acl,
            value: .array(current.map { TLVElement($0.value) } + [TLVElement(operate.tlvValue())]))

        let peer = try await RawClient.start()
        let session = try await peer.connect(device, nodeID: node, credentials: operatorCredentials)
        #expect(try await peer.client.invoke(toggle, session: session) == .status(.success))
        #expect(await isOn(device) == true)
        let writes = try await peer.client.write(
            [WriteItem(path: nodeLabel, value: .utf8("owned")), WriteItem(path: acl, value: .array([]))],
            session: session)
        #expect(writes.map { $0.status.status } == [IMStatus.unsupportedAccess, .unsupportedAccess])
        #expect(await log.eventuallyContains("access denied", "0x4242", "write", "manage"))
        #expect(await log.eventuallyContains("access denied", "0x4242", "write", "administer"))
        let aclRead = try await peer.client.read([AttributePathIB(acl)], session: session)
        #expect(
            aclRead.report(for: acl).map { report in
                if case .failure(let status) = report.result { return status.status == .unsupportedAccess }
                return false
            } == true)

        // Nothing changed: the label is empty and the admin still administers.
        #expect(await device.deviceValue(0, .basicInformation, .BasicInformation.nodeLabel) == .utf8(""))
        try await controller.writeAttribute(
            node, endpoint: EndpointID(0), cluster: .basicInformation, attribute: .BasicInformation.nodeLabel,
            value: .utf8("kitchen"))
        #expect(await device.deviceValue(0, .basicInformation, .BasicInformation.nodeLabel) == .utf8("kitchen"))
        await peer.stop()
        await controller.stop()
        await device.stop()
        log.stop()
    }
}

/// A bare operational client: its own node on loopback UDP whose datagrams are recorded, so that a
/// test can present any credentials and replay what it sent.
final class RawClient: Sendable {
    let node: TransportNode
    let client: InteractionClient
    let transport: RecordingTransport

    private init(node: TransportNode, client: InteractionClient, transport: RecordingTransport) {
        self.node = node
        self.client = client
        self.transport = transport
    }

    static func start() async throws -> RawClient {
        let transport = RecordingTransport(try UDPEndpoint(port: 0, queue: DispatchQueue(label: "test.raw-client")))
        let node = TransportNode(transport: transport)
        await node.start()
        let client = await InteractionClient.install(on: node)
        return RawClient(node: node, client: client, transport: transport)
    }

    /// Opens CASE with `device` as `nodeID` (no resumption).
    func connect(_ device: VirtualDevice, nodeID: NodeID, credentials: CASECredentials) async throws -> SessionID {
        let address = try #require(UDPAddress(host: "127.0.0.1", port: device.port))
        let result = try await CASEInitiator.establish(
            node: node, peer: address, peerNodeID: nodeID, credentials: credentials, timeout: 5_000)
        transport.markHandshakeDone()
        return result.session
    }

    /// Ends `session` the spec's way (a CloseSession status report), so the device forgets it.
    func closeSessionOnDevice(_ device: VirtualDevice, _ session: SessionID) async throws {
        let port = node.port
        let sent: Bool = await node.perform { node in
            guard let exchange = try? node.openExchange(on: session, protocolID: .secureChannel) else { return false }
            defer { exchange.close() }
            let report = StatusReport(generalCode: .success, protocolCode: StatusReport.SecureChannelCode.closeSession)
            return (try? exchange.send(opcode: SecureChannelOpcode.statusReport, payload: report.encoded)) != nil
        }
        #expect(sent)
        // This client's session (its only one with the device) goes; counting all of the device's
        // sessions would race the commissioning's PASE session, which closes on its own.
        func held() async -> Bool { await device.node.secureSessionList.contains { $0.peerAddress.port == port } }
        for _ in 0..<200 where await held() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await !held())
    }

    func stop() async { await node.stop() }
}

/// A datagram transport that remembers what it sent (after the handshake) and can send it again.
final class RecordingTransport: DatagramTransport {
    private let inner: UDPEndpoint
    private let state = Mutex<(recording: Bool, sent: [(bytes: [UInt8], to: UDPAddress)])>((false, []))

    init(_ inner: UDPEndpoint) { self.inner = inner }

    var queue: DispatchQueue { inner.queue }
    var port: UInt16 { inner.port }
    func start(_ handler: @escaping @Sendable (Datagram) -> Void) { inner.start(handler) }
    func close() { inner.close() }

    func send(_ bytes: [UInt8], to destination: UDPAddress) throws(SocketError) {
        state.withLock { if $0.recording { $0.sent.append((bytes, destination)) } }
        try inner.send(bytes, to: destination)
    }

    func markHandshakeDone() { state.withLock { $0.recording = true } }
    var sentCount: Int { state.withLock { $0.sent.count } }
    func sent(since index: Int) -> [(bytes: [UInt8], to: UDPAddress)] { state.withLock { Array($0.sent[index...]) } }
    func replay(_ datagram: (bytes: [UInt8], to: UDPAddress)) throws { try inner.send(datagram.bytes, to: datagram.to) }
}

/// Collects log lines of the whole process while a test runs (the suite is serialized); lines still
/// go to stderr.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])
    private let previousLevel: LogLevel

    private init() { previousLevel = Logger.configuration.level }

    static func start() throws -> LogCapture {
        let capture = LogCapture()
        Logger.configuration.level = min(capture.previousLevel, .info)
        Logger.configuration.setSink { [capture] line in
            capture.lines.withLock { $0.append(line) }
            StandardError.write(line + "\n")
        }
        return capture
    }

    /// True when one line contains every fragment (case-insensitive), waiting up to 2 s for it: the
    /// device may log a refusal just after the peer has seen it.
    func eventuallyContains(_ fragments: String...) async -> Bool {
        for _ in 0..<200 {
            if contains(fragments) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return contains(fragments)
    }

    func contains(_ fragments: [String]) -> Bool {
        lines.withLock { lines in
            lines.contains { line in fragments.allSatisfy { line.lowercased().contains($0.lowercased()) } }
        }
    }

    func stop() {
        Logger.configuration.setSink(nil)
        Logger.configuration.level = previousLevel
    }
}
