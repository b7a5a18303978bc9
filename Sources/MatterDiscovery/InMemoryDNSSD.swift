import Synchronization

/// A DNS-SD "network" in memory, for protocol tests without a daemon: every `InMemoryDNSSD` host made
/// from one network sees what the others publish, at once. Name collisions rename like Avahi does, and
/// `setDaemonAvailable(false)` makes every call fail with `.daemonUnavailable`.
package final class InMemoryDNSSDNetwork: Sendable {
    struct Publication {
        let id: UInt64
        let hostID: UInt64
        let hostName: String
        let addresses: [DNSSDAddress]
        var record: DNSSDServiceRecord
        var currentName: String
    }

    struct State {
        var publications: [Publication] = []
        var nextID: UInt64 = 1
        var version: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var cancelledWaiters: Set<UInt64> = []
        var daemonAvailable = true
    }

    let state = Mutex(State())

    package init() {}

    /// A host on this network with its own host name and addresses.
    package func makeHost(hostName: String, addresses: [DNSSDAddress]) -> InMemoryDNSSD {
        let id = state.withLock { s in
            defer { s.nextID += 1 }
            return s.nextID
        }
        return InMemoryDNSSD(network: self, hostID: id, hostName: hostName, addresses: addresses)
    }

    /// Simulates the daemon going away (`false`: calls throw, publications vanish from browses) and
    /// coming back (`true`: publications reappear, as after Avahi re-registration).
    package func setDaemonAvailable(_ available: Bool) {
        let waiters = state.withLock { s in
            s.daemonAvailable = available
            return s.bumpVersion()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Number of browses currently parked waiting for a change (lets tests act while one waits).
    var parkedBrowseCount: Int { state.withLock { $0.waiters.count } }

    /// Everything currently published, in publication order (for assertions).
    package var services: [DNSSDResolvedService] {
        state.withLock { s in s.publications.map(\.resolved) }
    }

    // MARK: - operations used by InMemoryDNSSD

    func publish(_ record: DNSSDServiceRecord, host: InMemoryDNSSD) throws(DiscoveryError) -> DNSSDPublicationID {
        try record.validate()
        let (id, waiters) = try state.withLock { s throws(DiscoveryError) in
            guard s.daemonAvailable else { throw DiscoveryError.daemonUnavailable(detail: "in-memory daemon is down") }
            let id = s.nextID
            s.nextID += 1
            var publication = Publication(
                id: id, hostID: host.hostID, hostName: host.hostName, addresses: host.addresses, record: record,
                currentName: record.instanceName)
            publication.currentName = s.freeName(for: publication)
            s.publications.append(publication)
            return (id, s.bumpVersion())
        }
        for waiter in waiters { waiter.resume() }
        return DNSSDPublicationID(rawValue: id)
    }

    func update(_ id: DNSSDPublicationID, to record: DNSSDServiceRecord, host: InMemoryDNSSD) throws(DiscoveryError) {
        try record.validate()
        let waiters = try state.withLock { s throws(DiscoveryError) in
            guard s.daemonAvailable else { throw DiscoveryError.daemonUnavailable(detail: "in-memory daemon is down") }
            guard let index = s.publications.firstIndex(where: { $0.id == id.rawValue && $0.hostID == host.hostID })
            else {
                throw DiscoveryError.unknownPublication
            }
            let renamed =
                record.instanceName != s.publications[index].record.instanceName
                || record.serviceType != s.publications[index].record.serviceType
            s.publications[index].record = record
            if renamed {
                s.publications[index].currentName = record.instanceName
                s.publications[index].currentName = s.freeName(for: s.publications[index])
            }
            return s.bumpVersion()
        }
        for waiter in waiters { waiter.resume() }
    }

    func withdraw(_ id: DNSSDPublicationID, host: InMemoryDNSSD) {
        let waiters = state.withLock { s in
            s.publications.removeAll { $0.id == id.rawValue && $0.hostID == host.hostID }
            return s.bumpVersion()
        }
        for waiter in waiters { waiter.resume() }
    }

    func withdrawAll(host: InMemoryDNSSD) {
        let waiters = state.withLock { s in
            s.publications.removeAll { $0.hostID == host.hostID }
            return s.bumpVersion()
        }
        for waiter in waiters { waiter.resume() }
    }

    func currentName(_ id: DNSSDPublicationID, host: InMemoryDNSSD) -> String? {
        state.withLock { s in s.publications.first { $0.id == id.rawValue && $0.hostID == host.hostID }?.currentName }
    }

    /// The matching services now, and the version they were read at.
    func snapshot(
        _ query: DNSSDQuery, accept: (DNSSDResolvedService) -> Bool
    ) throws(DiscoveryError) -> (services: [DNSSDResolvedService], version: UInt64) {
        let (available, publications, version) = state.withLock { s in (s.daemonAvailable, s.publications, s.version) }
        guard available else { throw .daemonUnavailable(detail: "in-memory daemon is down") }
        let found = publications.filter { p in
            p.record.serviceType == query.serviceType && query.accepts(instanceName: p.currentName)
                && (query.subtype.map { p.record.subtypes.contains($0) } ?? true)
        }.map(\.resolved).filter(accept)
        return (found, version)
    }

    /// Returns when the published set changes after `version`, or at `deadline`, or on cancellation.
    func waitForChange(after version: UInt64, until deadline: ContinuousClock.Instant) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.changeSignal(after: version) }
            group.addTask { try? await Task.sleep(until: deadline, clock: .continuous) }
            await group.next()
            group.cancelAll()
        }
    }

    private func changeSignal(after version: UInt64) async {
        let waiterID = state.withLock { s in
            defer { s.nextID += 1 }
            return s.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { s in
                    if s.version != version || s.cancelledWaiters.remove(waiterID) != nil { return true }
                    s.waiters[waiterID] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let continuation = state.withLock { s in
                if let c = s.waiters.removeValue(forKey: waiterID) { return Optional(c) }
                s.cancelledWaiters.insert(waiterID)
                return nil
            }
            continuation?.resume()
        }
    }
}

extension InMemoryDNSSDNetwork.State {
    /// Marks a change and hands back every waiter to resume (outside the lock).
    mutating func bumpVersion() -> [CheckedContinuation<Void, Never>] {
        version += 1
        defer { waiters.removeAll() }
        return Array(waiters.values)
    }

    /// `publication.currentName`, or the next free name after collisions with other publications.
    func freeName(for publication: InMemoryDNSSDNetwork.Publication) -> String {
        var generator = SystemRandomNumberGenerator()
        var name = publication.currentName
        while publications.contains(where: {
            $0.id != publication.id && $0.record.serviceType == publication.record.serviceType
                && $0.currentName.lowercased() == name.lowercased()
        }) {
            name = MatterInstanceName.next(after: name, renaming: publication.record.renaming, using: &generator)
        }
        return name
    }
}

extension InMemoryDNSSDNetwork.Publication {
    var resolved: DNSSDResolvedService {
        DNSSDResolvedService(
            serviceType: record.serviceType, instanceName: currentName, hostName: hostName, port: record.port,
            txt: record.txt, addresses: addresses)
    }
}

/// One host on an `InMemoryDNSSDNetwork`: publishes under its host name and addresses and browses the
/// whole network. Publications are established immediately.
package final class InMemoryDNSSD: DNSSDAdvertiser, DNSSDBrowser, Sendable {
    package let network: InMemoryDNSSDNetwork
    package let hostName: String
    package let addresses: [DNSSDAddress]
    let hostID: UInt64

    init(network: InMemoryDNSSDNetwork, hostID: UInt64, hostName: String, addresses: [DNSSDAddress]) {
        self.network = network
        self.hostID = hostID
        self.hostName = hostName
        self.addresses = addresses
    }

    package func publish(_ record: DNSSDServiceRecord) async throws(DiscoveryError) -> DNSSDPublicationID {
        try network.publish(record, host: self)
    }

    package func update(_ publication: DNSSDPublicationID, to record: DNSSDServiceRecord) async throws(DiscoveryError) {
        try network.update(publication, to: record, host: self)
    }

    package func withdraw(_ publication: DNSSDPublicationID) async { network.withdraw(publication, host: self) }

    package func instanceName(of publication: DNSSDPublicationID) async -> String? {
        network.currentName(publication, host: self)
    }

    package func waitUntilEstablished(_ publication: DNSSDPublicationID, timeout: Duration) async throws(DiscoveryError)
        -> String
    {
        guard let name = network.currentName(publication, host: self) else { throw .unknownPublication }
        return name
    }

    /// Withdraws everything this host published.
    package func stop() { network.withdrawAll(host: self) }

    package func browse(
        _ query: DNSSDQuery, timeout: Duration, limit: Int?,
        accept: @escaping @Sendable (DNSSDResolvedService) -> Bool
    ) async throws(DiscoveryError) -> [DNSSDResolvedService] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (found, version) = try network.snapshot(query, accept: accept)
            if let limit, found.count >= limit { return Array(found.prefix(limit)) }
            if ContinuousClock.now >= deadline { return found }
            if Task.isCancelled { throw .cancelled }
            await network.waitForChange(after: version, until: deadline)
        }
    }
}
