package import Dispatch
package import MatterCore
import MatterCrypto
import Synchronization

/// One Matter node's message layer (spec chapter 4): sessions, message counters, encryption, MRP and
/// exchanges over one datagram transport. An actor whose executor is the transport's serial queue,
/// so a datagram is decoded, decrypted, handled and answered on that queue without hops.
public actor TransportNode {
    /// Tunables with the SDK's values as defaults.
    package struct Configuration: Sendable {
        /// Intervals this node advertises and applies to its own waits.
        package var localMRP = MRPParameters.default
        /// Secure sessions kept at most; the least recently active is evicted for a new one.
        package var secureSessionCapacity = 64
        /// Unsecured peers (handshakes in flight) kept at most. A new peer evicts the least recently
        /// active one without an open exchange (else the least recently active one).
        package var unsecuredSessionCapacity = 64
        /// Closed exchanges whose last reliable message is still retransmitted, at most; beyond that
        /// the oldest, those on unsecured sessions first, stop being retransmitted.
        package var closingExchangeCapacity = 64
        /// True: the node's ``NodeScheduler`` runs on a Dispatch timer. False: it is manual, tests call
        /// `serviceTimers()` themselves after moving a `ManualClock`.
        package var usesDispatchTimers = true
        /// Seed for MRP jitter and counters; nil draws from the system's generator.
        package var randomSeed: UInt64?
        /// True: a reliable message to a peer whose port the network reports closed (ICMP port
        /// unreachable, where the transport can tell) fails its exchange at once with
        /// `TransportError.portUnreachable` instead of after every MRP retransmission.
        package var failsOnPortUnreachable = false
        package init() {}
    }

    nonisolated let executor: DispatchQueueExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    let transport: any DatagramTransport
    /// The node's clock (milliseconds); protocol timers above the transport use it too.
    package nonisolated let clock: any MatterClock
    /// The node's one timer source: the transport, the interaction engine and the data model arm their
    /// timers here (see ``context``).
    package nonisolated let scheduler: NodeScheduler
    let configuration: Configuration
    let log = Logger(label: "transport")
    var random: SeededRandom

    var unsecuredCounter: UInt32
    var unsecuredPeers: [SessionID: UnsecuredPeer] = [:]
    var secureSessions: [UInt16: SecureSession] = [:]
    /// The keys of `secureSessions`, readable without waiting for the node (see `hasSecureSession`).
    nonisolated let publishedSessionIDs = Mutex<Set<UInt16>>([])
    var reservedSessionIDs: Set<UInt16> = []
    var exchanges: [ExchangeKey: Exchange] = [:]
    var retransmissions = RetransmissionTable<ExchangeKey>()
    var handlers: [ProtocolID: any UnsolicitedMessageHandler] = [:]
    var sessionClosedObservers: [@Sendable (isolated TransportNode, SessionID) -> Void] = []
    /// The transport's own timer on `scheduler` (made on first use, outside `init`).
    var timer: NodeTimer?
    var nodeContext: NodeContext?
    var stopped = false
    /// What was received, sent and dropped.
    package internal(set) var statistics = TransportStatistics()

    struct UnsecuredPeer {
        var counter = PeerMessageCounter(policy: .unsecured)
        var mrp = MRPParameters.default
        var lastActivity: UInt64
    }

    /// Creates a node on `transport` (whose queue becomes the node's executor). Call `start()`.
    package init(
        transport: any DatagramTransport, clock: any MatterClock = SystemClock(),
        configuration: Configuration = Configuration()
    ) {
        self.transport = transport
        self.clock = clock
        self.configuration = configuration
        executor = DispatchQueueExecutor(queue: transport.queue)
        // No closure here captures `self`: the scheduler knows only the clock and the queue.
        scheduler = NodeScheduler(clock: clock, queue: configuration.usesDispatchTimers ? transport.queue : nil)
        var random = SeededRandom(seed: configuration.randomSeed)
        unsecuredCounter = random.initialMessageCounter()
        self.random = random
    }

    /// Starts receiving.
    package func start() {
        if configuration.failsOnPortUnreachable {
            transport.onPortUnreachable { [weak self] peer in
                guard let self else { return }
                self.assumeIsolated { node in node.portUnreachable(peer) }
            }
        }
        transport.start { [weak self] datagram in
            guard let self else { return }
            self.assumeIsolated { node in node.handleDatagram(datagram) }
        }
    }

    /// Fails every exchange whose reliable message waits for an acknowledgement from `peer` (same
    /// address and port), since nothing listens there.
    func portUnreachable(_ peer: UDPAddress) {
        for key in retransmissions.keys(destinedTo: peer) {
            retransmissions.remove(key)
            let exchange = exchanges[key] ?? closingExchanges[key]
            closingExchanges[key] = nil
            log.info("\(key): \(peer) reported its port closed")
            exchange?.fail(.portUnreachable(peer), node: self)
        }
        rearmTimer()
    }

    /// Stops receiving, fails every exchange, cancels timers. Idempotent.
    package func stop() {
        guard !stopped else { return }
        stopped = true
        scheduler.stop()
        timer = nil
        for exchange in exchanges.values { exchange.fail(.stopped, node: self) }
        exchanges.removeAll()
        transport.close()
    }

    /// The bound port.
    package nonisolated var port: UInt16 { transport.port }

    /// The serial queue the node runs on; its ``scheduler`` fires here.
    package nonisolated var queue: DispatchQueue { transport.queue }

    var now: UInt64 { clock.nowMilliseconds() }

    /// What runs on this node is handed instead of the node: its scheduler, clock, queue, sessions and
    /// exchanges (made on first use, not in `init`, since it refers back to the node).
    package var context: NodeContext {
        if let nodeContext { return nodeContext }
        let made = NodeContext(node: self)
        nodeContext = made
        return made
    }

    /// Registers the handler for exchanges peers initiate with `protocolID`; the node owns it from
    /// then on (it is handed over, not shared).
    package func setUnsolicitedHandler(_ handler: any UnsolicitedMessageHandler, for protocolID: ProtocolID) {
        handlers[protocolID] = handler
    }

    /// Called (on the node's queue) whenever a secure session goes away.
    package func onSessionClosed(_ observer: @escaping @Sendable (isolated TransportNode, SessionID) -> Void) {
        sessionClosedObservers.append(observer)
    }

    // MARK: Sessions

    /// Opens the unsecured session towards `peer` for a handshake this node initiates: a fresh
    /// random ephemeral node ID identifies it.
    package func openUnsecuredSession(to peer: UDPAddress, peerMRP: MRPParameters = .default) -> SessionID {
        let ephemeral = NodeID(random.next() & 0xFFFF_FFEF_FFFF_FFFF | 1)
        let id = SessionID.unsecured(peer: peer, ephemeralNodeID: ephemeral)
        insertUnsecured(id, UnsecuredPeer(mrp: peerMRP, lastActivity: now))
        return id
    }

    /// Sets the MRP intervals a peer advertised during a handshake.
    package func setPeerMRP(_ mrp: MRPParameters, for session: SessionID) {
        switch session {
        case .unsecured: unsecuredPeers[session]?.mrp = mrp
        case .secure(let id): secureSessions[id]?.parameters.peerMRP = mrp
        }
    }

    /// Forgets an unsecured session (handshake finished or abandoned).
    package func removeUnsecuredSession(_ session: SessionID) {
        guard case .unsecured = session else { return }
        unsecuredPeers[session] = nil
        closeExchanges(of: session, error: .sessionNotFound(session))
    }

    /// Reserves a session ID that no secure session or handshake in flight of this node uses (never
    /// 0). `addSecureSession` takes the reservation over; `releaseSessionID` gives it back.
    package func allocateSessionID() -> UInt16 {
        while true {
            let candidate = UInt16(truncatingIfNeeded: random.next())
            if candidate != 0, secureSessions[candidate] == nil, !reservedSessionIDs.contains(candidate) {
                reservedSessionIDs.insert(candidate)
                return candidate
            }
        }
    }

    /// Gives back a reserved session ID whose handshake failed.
    package func releaseSessionID(_ id: UInt16) { reservedSessionIDs.remove(id) }

    /// Installs a secure session whose keys a handshake derived. Evicts the least recently active
    /// session when full.
    @discardableResult
    package func addSecureSession(_ parameters: SecureSessionParameters) -> SessionID {
        if secureSessions.count >= configuration.secureSessionCapacity,
            let oldest = secureSessions.values.min(by: { $0.lastActivity < $1.lastActivity })
        {
            log.info("evicting secure session \(oldest.parameters.localSessionID) (capacity)")
            removeSecureSession(.secure(localSessionID: oldest.parameters.localSessionID))
        }
        let counter = random.initialMessageCounter()
        reservedSessionIDs.remove(parameters.localSessionID)
        secureSessions[parameters.localSessionID] = SecureSession(parameters, initialCounter: counter, now: now)
        publishedSessionIDs.withLock { _ = $0.insert(parameters.localSessionID) }
        return .secure(localSessionID: parameters.localSessionID)
    }

    /// Removes a secure session; its exchanges fail and observers are told.
    package func removeSecureSession(_ session: SessionID) {
        guard case .secure(let id) = session, secureSessions.removeValue(forKey: id) != nil else { return }
        publishedSessionIDs.withLock { _ = $0.remove(id) }
        closeExchanges(of: session, error: .sessionNotFound(session))
        for observer in sessionClosedObservers { observer(self, session) }
    }

    /// True when the secure session exists. Answers from any thread without waiting for the node's
    /// queue, so that a caller about to use a cached session does not pay two executor hops.
    package nonisolated func hasSecureSession(_ session: SessionID) -> Bool {
        guard case .secure(let id) = session else { return false }
        return publishedSessionIDs.withLock { $0.contains(id) }
    }

    /// The parameters of a secure session, if it exists.
    package func secureSession(_ session: SessionID) -> SecureSessionParameters? {
        guard case .secure(let id) = session else { return nil }
        return secureSessions[id]?.parameters
    }

    /// Every secure session's parameters.
    package var secureSessionList: [SecureSessionParameters] { secureSessions.values.map(\.parameters) }

    /// Unsecured sessions (handshakes in flight or abandoned) the node keeps.
    package var unsecuredSessionCount: Int { unsecuredPeers.count }

    /// Session IDs reserved by handshakes in flight.
    package var reservedSessionIDCount: Int { reservedSessionIDs.count }

    func insertUnsecured(_ id: SessionID, _ peer: UnsecuredPeer) {
        if unsecuredPeers[id] == nil, unsecuredPeers.count >= configuration.unsecuredSessionCapacity,
            let victim = unsecuredEvictionCandidate()
        {
            statistics.unsecuredSessionsEvicted += 1
            removeUnsecuredSession(victim)
        }
        unsecuredPeers[id] = peer
    }

    /// The unsecured session a new one replaces: the least recently active among those with no open
    /// exchange (so a flood of one-message peers cannot push out a handshake in flight), else the
    /// least recently active of all.
    func unsecuredEvictionCandidate() -> SessionID? {
        var busy = Set<SessionID>()
        for key in exchanges.keys {
            if case .unsecured = key.session { busy.insert(key.session) }
        }
        var idle: (SessionID, UInt64)?
        var any: (SessionID, UInt64)?
        for (id, peer) in unsecuredPeers {
            if any.map({ peer.lastActivity < $0.1 }) ?? true { any = (id, peer.lastActivity) }
            if !busy.contains(id), idle.map({ peer.lastActivity < $0.1 }) ?? true { idle = (id, peer.lastActivity) }
        }
        return (idle ?? any)?.0
    }

    func closeExchanges(of session: SessionID, error: TransportError) {
        for (key, exchange) in exchanges where key.session == session {
            retransmissions.remove(key)
            exchanges[key] = nil
            exchange.fail(error, node: self)
            exchange.markClosed()
        }
    }

    // MARK: Exchanges

    /// Opens an exchange this node initiates on `session`.
    package func openExchange(on session: SessionID, protocolID: ProtocolID) throws(TransportError) -> Exchange {
        guard sessionExists(session) else { throw .sessionNotFound(session) }
        var key: ExchangeKey
        repeat {
            key = ExchangeKey(
                session: session, exchangeID: UInt16(truncatingIfNeeded: random.next()), isInitiator: true)
        } while exchanges[key] != nil
        let exchange = Exchange(key: key, protocolID: protocolID, node: self)
        exchanges[key] = exchange
        return exchange
    }

    func sessionExists(_ session: SessionID) -> Bool {
        switch session {
        case .unsecured: unsecuredPeers[session] != nil
        case .secure(let id): secureSessions[id] != nil
        }
    }

    func receive(on exchange: Exchange, timeout: UInt64) async throws -> ReceivedMessage {
        if let failure = exchange.failure { throw failure }
        if !exchange.inbox.isEmpty { return exchange.inbox.removeFirst() }
        if exchange.isClosed { throw TransportError.exchangeClosed }
        return try await withCheckedThrowingContinuation { continuation in
            exchange.waiter = continuation
            exchange.responseTimeout = timeout
            exchange.responseDeadline = now + timeout
            rearmTimer()
        }
    }

    func close(_ exchange: Exchange) {
        guard !exchange.isClosed else { return }
        if let ack = exchange.pendingAck {
            exchange.pendingAck = nil
            sendStandaloneAck(key: exchange.key, counter: ack.counter)
        }
        // A reliable message still in flight keeps being retransmitted until acknowledged or given up;
        // the exchange itself no longer delivers anything.
        exchanges[exchange.key] = nil
        if exchange.openedByPeer, exchange.sendAttempts == 0 { statistics.droppedByHandler += 1 }
        exchange.markClosed()
        if retransmissions.entries[exchange.key] != nil {
            closingCount += 1
            exchange.closingOrder = closingCount
            closingExchanges[exchange.key] = exchange
            trimClosingExchanges()
        }
    }

    /// Keeps at most `closingExchangeCapacity` closed exchanges waiting for their last acknowledgement.
    /// Beyond that the oldest is no longer retransmitted: one on an unsecured session first (refused or
    /// failed handshakes, what a flood of requests that never acknowledge leaves behind).
    func trimClosingExchanges() {
        while closingExchanges.count > configuration.closingExchangeCapacity {
            var victim: Exchange?
            for exchange in closingExchanges.values {
                guard let current = victim else {
                    victim = exchange
                    continue
                }
                let rank = (exchange.session.isUnsecured ? 0 : 1, exchange.closingOrder)
                let currentRank = (current.session.isUnsecured ? 0 : 1, current.closingOrder)
                if rank < currentRank { victim = exchange }
            }
            guard let victim else { return }
            closingExchanges[victim.key] = nil
            retransmissions.remove(victim.key)
            statistics.retransmissionsAbandoned += 1
        }
    }

    /// Closed exchanges whose last reliable message still awaits its acknowledgement.
    var closingExchanges: [ExchangeKey: Exchange] = [:]
    /// Exchanges that entered `closingExchanges` so far (their order).
    var closingCount: UInt64 = 0

    // MARK: Occupancy

    /// Exchanges open now (either role).
    package var openExchangeCount: Int { exchanges.count }

    /// Closed exchanges whose last reliable message still awaits its acknowledgement.
    package var closingExchangeCount: Int { closingExchanges.count }

    /// Reliable messages awaiting an acknowledgement (open and closing exchanges).
    package var pendingRetransmissionCount: Int { retransmissions.entries.count }
}
