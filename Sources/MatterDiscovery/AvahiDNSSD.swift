import Dispatch
package import MatterCore

/// DNS-SD through the system's Avahi daemon (libavahi-client over D-Bus).
///
/// Services go to the daemon as raw records without probing by default (see `DNSSDPublishing`),
/// or as Avahi services that the daemon probes first.
///
/// Publications survive trouble: a name collision picks the next name (see
/// `DNSSDServiceRecord.CollisionRenaming`); when the daemon goes away the client reconnects in the
/// background and re-registers everything once the daemon is back. Browses need a live daemon.
///
/// Concurrency: an actor whose executor is one serial queue. Avahi calls back on its own poll thread;
/// each callback copies its data and re-dispatches onto that queue. Call `stop()` when done (it is
/// idempotent; dropping the last reference also releases everything).
package actor AvahiDNSSD: DNSSDAdvertiser, DNSSDBrowser {
    package nonisolated let executor: DispatchQueueExecutor
    package nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    enum ClientState: Equatable { case disconnected, connecting, registering, running }

    enum PublicationState: Equatable {
        case pending, registering, established
        case failed(DiscoveryError)
    }

    struct Publication {
        var record: DNSSDServiceRecord
        var currentName: String
        var groupToken: UInt64?
        /// Raw records only: the entry group probing a copy of the SRV record, to detect a conflict.
        var sentinelToken: UInt64?
        /// Raw records only: the sentinel's probes found no peer claiming the current name.
        var conflictChecked = false
        var state: PublicationState = .pending
        var waiters: [UInt64: CheckedContinuation<Result<String, DiscoveryError>, Never>] = [:]
    }

    let logger = Logger(label: "dnssd")
    /// How services are handed to the daemon.
    package nonisolated let publishing: DNSSDPublishing
    var connection: AvahiConnection?
    var clientState = ClientState.disconnected
    var stopped = false
    var publications: [UInt64: Publication] = [:]
    var groupOwners: [UInt64: UInt64] = [:]
    var browses: [UInt64: BrowseOperation] = [:]
    var browserOwners: [UInt64: UInt64] = [:]
    var resolverOwners: [UInt64: UInt64] = [:]
    var nextID: UInt64 = 1
    var reconnectPending = false
    var reconnectDelay: Duration = .milliseconds(250)
    var random = SystemRandomNumberGenerator()
    var sentinelWarned = false
    /// Raw records only: the entry group holding the one service-enumeration PTR of each service
    /// type that has publications.
    var enumerationGroups: [String: UInt64] = [:]

    init(label: String, publishing: DNSSDPublishing) {
        executor = DispatchQueueExecutor(label: label)
        self.publishing = publishing
    }

    /// Connects to the Avahi daemon. Throws `.daemonUnavailable` at once (never hangs) when there is
    /// no system D-Bus or no daemon on it; the message says to use `--address HOST:PORT` instead.
    package static func start(label: String = "matter.dnssd", publishing: DNSSDPublishing = .rawRecords)
        async throws(DiscoveryError) -> AvahiDNSSD
    {
        let dnssd = AvahiDNSSD(label: label, publishing: publishing)
        try await dnssd.connectFirstTime()
        return dnssd
    }

    private func connectFirstTime() throws(DiscoveryError) {
        let queue = executor.queue
        // Only a weak reference crosses to the poll thread; it is upgraded on the queue, so the actor
        // is never released (and its Avahi objects freed) on the poll thread.
        let owner = WeakAvahiDNSSD(self)
        let connection = try AvahiConnection { token, event in
            queue.async {
                guard let dnssd = owner.value else { return }
                dnssd.assumeIsolated { $0.handle(token, event) }
            }
        }
        let state = try connection.connectClient()
        guard state != .connecting, state != .failure else {
            connection.shutdown()
            throw .daemonUnavailable(detail: "avahi-daemon is not registered on the system D-Bus")
        }
        self.connection = connection
        clientStatusChanged(state, error: 0)
    }

    /// Withdraws everything, ends pending browses with `.stopped`, and frees every Avahi resource.
    /// Idempotent.
    package func stop() {
        guard !stopped else { return }
        stopped = true
        for token in Array(browses.keys) { finishBrowse(token, .stopped) }
        for id in Array(publications.keys) { failWaiters(id, .stopped) }
        publications.removeAll()
        groupOwners.removeAll()
        connection?.shutdown()
        connection = nil
        clientState = .disconnected
    }

    func newID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    // MARK: - events

    func handle(_ token: UInt64, _ event: AvahiEvent) {
        guard !stopped, let connection else { return }
        switch event {
        case .client(let status, let error):
            guard token == connection.clientToken else { return }
            clientStatusChanged(status, error: error)
        case .group(let status, let error):
            guard let id = groupOwners[token] else { return }
            if token == publications[id]?.sentinelToken {
                sentinelStatusChanged(id, status, error: error)
            } else {
                groupStatusChanged(id, status, error: error)
            }
        case .browser(let browseEvent):
            guard let op = browserOwners[token] else { return }
            browserEvent(op, browseEvent)
        case .resolver(let resolveEvent):
            guard let op = resolverOwners[token] else { return }
            resolverEvent(op, resolver: token, resolveEvent)
        }
    }

    func clientStatusChanged(_ status: AvahiClientStatus, error: Int32) {
        switch status {
        case .running:
            if clientState != .running { logger.info("Avahi daemon running") }
            clientState = .running
            reconnectDelay = .milliseconds(250)
            for id in publications.keys.sorted() where publications[id]?.groupToken == nil {
                register(id)
            }
        case .registering, .collision:
            // The daemon is (re)establishing its host name: Avahi wants services withdrawn until
            // it runs again.
            clientState = .registering
            for id in publications.keys { dropGroup(id) }
            dropEnumerations()
        case .connecting:
            if clientState != .connecting { logger.notice("waiting for the Avahi daemon to come back") }
            clientState = .connecting
        case .failure:
            logger.notice(
                "lost the Avahi daemon (\(AvahiConnection.reason(error))); publications resume when it is back")
            connectionLost()
        }
    }

    /// The client failed (daemon or bus gone): free it, end browses, keep publications pending and
    /// reconnect in the background.
    private func connectionLost() {
        for token in Array(browses.keys) {
            finishBrowse(token, .daemonUnavailable(detail: "the Avahi daemon went away"))
        }
        for id in publications.keys {
            if let token = publications[id]?.groupToken { groupOwners[token] = nil }
            if let token = publications[id]?.sentinelToken { groupOwners[token] = nil }
            publications[id]?.groupToken = nil
            publications[id]?.sentinelToken = nil
            publications[id]?.state = .pending
        }
        enumerationGroups.removeAll()  // freed with the client
        connection?.freeClient()
        clientState = .disconnected
        scheduleReconnect()
    }

    private func scheduleReconnect() {
        guard !stopped, !reconnectPending else { return }
        reconnectPending = true
        let delay = reconnectDelay
        reconnectDelay = min(reconnectDelay * 2, .seconds(5))
        executor.queue.asyncAfter(deadline: .now() + delay.dispatchInterval) { [weak self] in
            guard let self else { return }
            self.assumeIsolated { $0.reconnect() }
        }
    }

    private func reconnect() {
        reconnectPending = false
        guard !stopped, let connection, clientState == .disconnected else { return }
        do {
            let state = try connection.connectClient()
            clientStatusChanged(state, error: 0)
        } catch {
            logger.debug("Avahi reconnect failed: \(error)")
            scheduleReconnect()
        }
    }
}
