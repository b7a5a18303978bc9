import MatterClusters
public import MatterCore
import MatterDataModel
import MatterDiscovery
import MatterInteraction
public import MatterOnboarding
import MatterSecureChannel
import MatterStorage
public import MatterTransport
import Synchronization

/// A virtual Matter device: a root node that can be commissioned (PASE, attestation, NOC, CASE) and
/// an application endpoint of one device type, on one UDP socket, advertised through Avahi, with its
/// state in SQLite. Its protocol state lives on the node's queue.
public final class VirtualDevice: Sendable {
    public let configuration: VirtualDeviceConfiguration
    /// This process's claim on the state file, released when the device stops.
    let ownership: StoreOwnership
    /// The device's transport node (its queue runs everything of this device).
    public let node: TransportNode
    /// The data model and the root node live on the node's queue, reached in its isolation.
    let dataModel: NodeBound<DeviceDataModel>
    let root: NodeBound<RootNode>
    let server: InteractionServer
    /// Sends the commands of a client-side device (a switch) to the nodes its bindings name.
    let bindingClient: InteractionClient
    let advertiser: DeviceAdvertiser?
    /// Finds the nodes a client-side device's bindings name (nil: no DNS-SD).
    let resolver: (any MatterNodeBrowser)?
    /// The CASE sessions a client-side device keeps with the nodes it commanded.
    let bindingSessions = Mutex<[BindingKey: SessionID]>([:])
    /// Drops every datagram while the device is `offline` (control plane).
    let gate: OfflineGate
    let vendorID: VendorID
    let productID: ProductID
    let deviceTypeID: DeviceTypeID
    let commissionableInstance = MatterInstanceName.randomCommissionable()
    private let eventSink = Mutex<(@Sendable (DeviceEvent) -> Void)?>(nil)

    init(
        configuration: VirtualDeviceConfiguration, ownership: StoreOwnership, node: TransportNode,
        dataModel: NodeBound<DeviceDataModel>, root: NodeBound<RootNode>,
        server: InteractionServer, client: InteractionClient, advertiser: DeviceAdvertiser?,
        resolver: (any MatterNodeBrowser)?, gate: OfflineGate, deviceTypeID: DeviceTypeID, vendorID: VendorID,
        productID: ProductID
    ) {
        self.configuration = configuration
        self.ownership = ownership
        self.node = node
        self.dataModel = dataModel
        self.root = root
        self.server = server
        self.bindingClient = client
        self.advertiser = advertiser
        self.resolver = resolver
        self.gate = gate
        self.vendorID = vendorID
        self.productID = productID
        self.deviceTypeID = deviceTypeID
    }

    /// The onboarding payload the device prints (QR code and manual code).
    public var setupPayload: SetupPayload {
        SetupPayload(
            vendorID: vendorID, productID: productID, commissioningFlow: .standard,
            discoveryCapabilities: .onNetwork, discriminator: .long(configuration.discriminator),
            passcode: configuration.passcode)
    }

    /// The bound UDP port.
    public var port: UInt16 { node.port }

    /// Receives one line per state change ("on-off 1: on") and per commissioning event. Called on
    /// the node's queue.
    public func onEvent(_ sink: @escaping @Sendable (String) -> Void) { onDeviceEvent { sink($0.description) } }

    /// Receives every state change and commissioning event with its fields. Called on the node's queue.
    public func onDeviceEvent(_ sink: @escaping @Sendable (DeviceEvent) -> Void) { eventSink.withLock { $0 = sink } }

    func emit(_ event: DeviceEvent) { eventSink.withLock { $0 }?(event) }

    /// Fabrics the device has committed: (index, fabric ID, node ID).
    public func fabrics() async -> [(index: UInt8, fabricID: FabricID, nodeID: NodeID)] {
        await node.run { node in root.value(in: node).committedFabrics.map { ($0.index, $0.fabricID, $0.nodeID) } }
    }

    /// True while a commissioning window is open.
    public func isCommissionable() async -> Bool { await node.run { node in root.value(in: node).windows.isOpen } }

    /// True while the basic window is open: the one the device's own QR and manual codes (``setupPayload``)
    /// commission through (an enhanced window takes the codes that opened it).
    public func isBasicWindowOpen() async -> Bool {
        await node.run { node in
            if case .basic = root.value(in: node).windows.window { return true }
            return false
        }
    }

    /// Stops advertising, timers and the socket.
    public func stop() async {
        await node.run { node in
            root.value(in: node).stop()
            dataModel.value(in: node).shutDown()
        }
        // Subscribers get what is pending (the ShutDown event) now, and up to half a second to
        // acknowledge it, before the socket closes.
        await server.flushReports()
        for _ in 0..<25 {
            guard await server.reportsInFlight() else { break }
            try? await Task.sleep(for: .milliseconds(20))
        }
        await advertiser?.stop()
        await node.stop()
        ownership.release()
    }

    /// Connects the parts once everything exists (on the node's queue).
    func wire() async {
        let boundRoot = self.root
        let boundDataModel = self.dataModel
        await node.run { [weak self] node in
            let root = boundRoot.value(in: node)
            let dataModel = boundDataModel.value(in: node)
            root.pase.onEstablished = { session, peer in
                self?.emit(.paseEstablished(peer: "\(peer)"))
                root.paseEstablished(session)
            }
            root.pase.onFailure = { error in self?.emit(.paseFailed(reason: "\(error)")) }
            root.pase.onWindowClosedByFailures = { root.windows.close() }
            root.caseResponder.onEstablished = { _, peer in
                self?.emit(.caseEstablished(nodeID: peer.nodeID, fabricIndex: peer.fabricIndex))
            }
            var committed = Set(root.committedFabrics.map(\.index))
            root.onChange = { change in
                switch change {
                case .fabricsChanged:
                    // Leave (spec 11.1.6.3) for each committed fabric that went away (RemoveFabric).
                    let now = Set(root.committedFabrics.map(\.index))
                    for index in committed.subtracting(now).sorted() {
                        dataModel.cluster(BasicInformationServer.self, on: .root)?.recordLeave(fabricIndex: index)
                    }
                    committed = now
                    self?.emit(.fabricsChanged(root.fabrics.all.map(\.index)))
                case .windowChanged: self?.emit(.commissioningWindow(open: root.windows.isOpen))
                case .paseSessionChanged: break
                }
                self?.advertise(root)
            }
            dataModel.onStateChange = { change in self?.emit(DeviceEvent(change)) }
            dataModel.onEventRecorded = { event in self?.emit(.clusterEvent(event)) }
            node.onSessionClosed { node, session in boundRoot.value(in: node).sessionClosed(session) }
            if root.committedFabrics.isEmpty { root.windows.openBasic(timeoutSeconds: nil) }
            self?.advertise(root)
        }
    }

    /// Wishes the DNS-SD records the state of `root` calls for (on the node's queue, where `root` lives).
    func advertise(_ root: RootNode) {
        guard let advertiser else { return }
        var records: [DeviceAdvertiser.Key: DeviceAdvertiser.Record] = [:]
        // The ticket is taken here, on the node's queue, in the order of the state changes.
        let wish = advertiser.nextWish()
        guard !gate.isOffline else {  // offline: every record withdrawn
            Task { await advertiser.want(records, wish: wish) }
            return
        }
        let local = configuration.mrp
        let mrp = MRPAdvertisement(
            idleInterval: local.idleInterval, activeInterval: local.activeInterval,
            activeThreshold: local.activeThreshold)
        if root.windows.isOpen, root.windows.paseSession == nil {
            let mode: CommissioningMode = if case .enhanced = root.windows.window { .enhanced } else { .basic }
            records[.commissionable] = .commissionable(
                CommissionableAdvertisement(
                    instanceName: commissionableInstance, port: port,
                    longDiscriminator: root.windows.advertisedDiscriminator,
                    commissioningMode: mode, vendorID: vendorID, productID: productID, deviceType: deviceTypeID,
                    deviceName: configuration.name, pairingHint: .standard, sessionParameters: mrp))
        }
        for fabric in root.fabrics.all {
            let key = DeviceAdvertiser.Key.operational(
                compressedFabricID: fabric.compressedFabricID, nodeID: fabric.nodeID)
            records[key] = .operational(
                OperationalAdvertisement(
                    compressedFabricID: fabric.compressedFabricID, nodeID: fabric.nodeID, port: port,
                    sessionParameters: mrp))
        }
        Task { await advertiser.want(records, wish: wish) }
    }
}

extension TransportNode {
    /// Runs `body` in the node's isolation.
    func run<T: Sendable>(_ body: @Sendable (isolated TransportNode) -> T) -> T { body(self) }
}
