public import MatterCore
import MatterCredentials
public import MatterDiscovery
import MatterInteraction
import MatterSecureChannel
public import MatterStorage
import MatterTransport

/// A Matter commissioner and controller: one operational identity on the fabric kept in its store,
/// one transport node, and a cache of CASE sessions for the life of the process.
///
/// An actor on the transport node's queue: protocol work runs there without hops. Several
/// controllers (in one process or many) may share one store; every store write is a transaction.
public actor Controller {
    let configuration: ControllerConfiguration
    let node: TransportNode
    let client: InteractionClient
    let identity: OperationalIdentity
    let resumption = CASEResumptionStore()
    /// Waits on the configuration's clock (commissioning's timeouts and pauses).
    let sleeper: ClockSleeper
    let log = Logger(label: "controller")

    /// Operational sessions by node, and connections in progress (so concurrent callers share one CASE).
    var sessions: [NodeID: OperationalSession] = [:]
    var connecting: [NodeID: Task<Result<OperationalSession, ControllerError>, Never>] = [:]
    /// Addresses given by the caller, used instead of discovery.
    var addressOverrides: [NodeID: DirectAddress] = [:]
    /// The DNS-SD browser (Avahi or the embedded querier), started on first use.
    var dnssd: (any DNSSDService)?
    var stopped = false

    public nonisolated var unownedExecutor: UnownedSerialExecutor { node.unownedExecutor }

    /// A secure session with a commissioned node.
    struct OperationalSession: Sendable {
        let session: SessionID
        let address: UDPAddress
    }

    init(
        configuration: ControllerConfiguration, node: TransportNode, client: InteractionClient,
        identity: OperationalIdentity
    ) {
        self.configuration = configuration
        self.node = node
        self.client = client
        self.identity = identity
        sleeper = ClockSleeper(clock: configuration.clock)
    }

    /// Opens the store's fabric (creating it on first use) and starts the transport.
    public static func open(_ configuration: ControllerConfiguration) async throws(ControllerError) -> Controller {
        let identity = try OperationalIdentity.loadOrCreate(store: configuration.store)
        var nodeConfiguration = TransportNode.Configuration()
        nodeConfiguration.localMRP = configuration.localMRP
        nodeConfiguration.secureSessionCapacity = configuration.sessionCapacity
        nodeConfiguration.unsecuredSessionCapacity = configuration.handshakeCapacity
        // A node whose port is closed fails at once (exit 7, "the port is closed"), not after MRP.
        nodeConfiguration.failsOnPortUnreachable = true
        let node = TransportNode(
            transport: configuration.transport, clock: configuration.clock, configuration: nodeConfiguration)
        await node.start()
        var clientConfiguration = InteractionClient.Configuration()
        clientConfiguration.responseTimeout = configuration.responseTimeout
        let client = await InteractionClient.install(on: node, configuration: clientConfiguration)
        return Controller(configuration: configuration, node: node, client: client, identity: identity)
    }

    /// Stops the transport and the DNS-SD browser. Sessions end without goodbyes, as the SDK's.
    public func stop() async {
        guard !stopped else { return }
        stopped = true
        for task in connecting.values { task.cancel() }
        await node.stop()
        if let dnssd { await dnssd.stop() }
        dnssd = nil
    }

    // MARK: Identity and store

    /// The store this controller writes.
    public nonisolated var store: ControllerStore { configuration.store }
    /// The fabric's ID.
    public nonisolated var fabricID: FabricID { identity.fabric.fabricID }
    /// This controller's node ID on the fabric.
    public nonisolated var controllerNodeID: NodeID { identity.fabric.controllerNodeID }
    /// The compressed fabric ID, as in `_matter._tcp` instance names.
    public nonisolated var compressedFabricID: UInt64 { identity.compressedFabricID }
    /// The local UDP port.
    public nonisolated var port: UInt16 { node.port }

    /// Uses `address` for `nodeID` instead of resolving it, for this controller's lifetime.
    public func setAddress(_ address: DirectAddress, for nodeID: NodeID) {
        addressOverrides[nodeID] = address
        sessions[nodeID] = nil
    }

    /// The stored node with this ID.
    /// - Throws: `invalidArgument` when it is not stored.
    public func storedNode(_ nodeID: NodeID) throws(ControllerError) -> ControllerNode {
        let node: ControllerNode?
        do { node = try store.node(nodeID) } catch { throw .storage(error) }
        guard let node else {
            throw .invalidArgument("no node \(nodeID.rawValue) in the store (see 'matter-emu nodes')")
        }
        return node
    }

    // MARK: Discovery

    /// The browser for `_matterc._udp` and `_matter._tcp`, or nil when discovery is off.
    func browser() async throws(ControllerError) -> (any MatterNodeBrowser)? {
        switch configuration.discovery {
        case .none: return nil
        case .browser(let browser): return browser
        case .avahi: return try await startDNSSD(.avahi)
        case .mdns(let backend): return try await startDNSSD(backend)
        }
    }

    private func startDNSSD(_ backend: MDNSBackend) async throws(ControllerError) -> any DNSSDService {
        if let dnssd { return dnssd }
        do {
            let started = try await backend.start(label: "matter-emu.controller")
            dnssd = started
            return started
        } catch {
            throw .notFound(error.description)
        }
    }

    var now: UInt64 { configuration.clock.nowMilliseconds() }
}

extension DNSSDAddress {
    /// The address as a socket peer on `port`.
    func udpAddress(port: UInt16) -> UDPAddress? { UDPAddress(host: description, port: port) }

    /// Global and unique-local IPv6 first, then IPv4, then link-local IPv6: the order addresses are tried in.
    var preference: Int {
        switch family {
        case .ipv6: isLinkLocal ? 2 : 0
        case .ipv4: 1
        }
    }
}

extension Array where Element == DNSSDAddress {
    /// Socket addresses on `port`, in the order to try them.
    func udpAddresses(port: UInt16) -> [UDPAddress] {
        enumerated().sorted { ($0.element.preference, $0.offset) < ($1.element.preference, $1.offset) }
            .compactMap { $0.element.udpAddress(port: port) }
    }
}
