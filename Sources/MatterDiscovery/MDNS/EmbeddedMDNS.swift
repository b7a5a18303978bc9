import Dispatch
package import MatterCore

/// DNS-SD over our own mDNS responder and querier (RFC 6762, RFC 6763), for hosts without avahi-daemon or
/// D-Bus (containers, CI) and for large fleets: one socket per address family on port 5353, shared with any
/// other responder of the host (SO_REUSEADDR/SO_REUSEPORT), joined to the mDNS group on the chosen interfaces.
///
/// Publishing: every record of every publication sits in one `MDNSRecordIndex`, so a query costs what it
/// returns. A publication's name is probed (three probes 250 ms apart, RFC 6762 §8.1, with the §8.2
/// tie-break), then announced twice, one second apart (§8.3); a conflict renames it like Avahi does
/// (`DNSSDServiceRecord.CollisionRenaming`) and probes again. Withdrawal and `stop()` send goodbyes (TTL 0).
/// Answers follow `MDNSAnswerPlanner`: unique records at once, shared ones after 20–120 ms, QU and legacy
/// unicast questions, known-answer suppression.
///
/// Browsing: continuous querying (1 s, then doubling up to 60 s) with known answers (§5.2, §7.1), a TTL cache
/// (`MDNSCache`), and SRV/TXT/address questions for what is still missing; results are the
/// `DNSSDResolvedService`s the Avahi backend returns. The echoes of its own multicast are dropped unread
/// (`MDNSSentPackets`); a browse reads its own publications from the index (`MDNSKnownRecords`).
///
/// Concurrency: an actor whose executor is the serial queue its sockets read on and its timers fire on.
/// Call `stop()` when done.
package actor EmbeddedMDNS: DNSSDAdvertiser, DNSSDBrowser {
    /// Which interfaces and port to use.
    package struct Configuration: Sendable {
        package var interfaces: [MDNSInterface]
        /// 5353; tests use another port so they stay apart from any responder of the host.
        package var port: UInt16
        package var ipv4: Bool
        package var ipv6: Bool
        /// The host label of the SRV target (`<label>.local`); default a random 12-hex-digit label, so the
        /// host's own name (owned by the host's responder, if any) is never claimed.
        package var hostLabel: String?

        package init(
            interfaces: [MDNSInterface] = MDNSInterface.defaults(), port: UInt16 = 5353,
            ipv4: Bool = true, ipv6: Bool = true, hostLabel: String? = nil
        ) {
            self.interfaces = interfaces
            self.port = port
            self.ipv4 = ipv4
            self.ipv6 = ipv6
            self.hostLabel = hostLabel
        }
    }

    /// Probes per name and their spacing (RFC 6762 §8.1).
    static let probeCount = 3
    static let probeInterval: Duration = .milliseconds(250)
    /// Largest datagram sent: fits a 1500-byte Ethernet frame over IPv6 (RFC 6762 §17).
    static let maxPacketBytes = 1440

    package nonisolated let executor: DispatchQueueExecutor
    package nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    package nonisolated let configuration: Configuration
    /// The SRV target of every publication, e.g. `matter-0a1b2c3d4e5f.local`.
    package nonisolated let hostName: String
    /// The ID of every query we multicast: random and never 0, so that the echo of our own query is told apart
    /// from another querier's query of the same bytes otherwise (ID 0, the same question and known answers),
    /// which must still be answered. RFC 6762 §18.1 asks for 0 in multicast queries only as a SHOULD; responders
    /// ignore the ID of a query from port 5353 (responses carry 0).
    package nonisolated let queryID: UInt16
    let host: DNSName

    var sockets: [MDNSSocket] = []
    var index = MDNSRecordIndex()
    var cache = MDNSCache()
    /// What was multicast lately, to drop its echo (`MDNSSentPackets`).
    var sent = MDNSSentPackets()
    /// The interface index of each of this host's addresses in the index (`MDNSKnownRecords`).
    var ownInterfaces: [[UInt8]: UInt32] = [:]
    var publications: [UInt64: Publication] = [:]
    var publicationsByName: [DNSName: UInt64] = [:]
    var browses: [UInt64: Browse] = [:]
    /// When each record (TTL 0, no cache-flush bit) was last multicast: QU answers by unicast only within a
    /// quarter of its TTL (§5.4), and a record is not multicast again within a second (§6).
    var lastMulticast: [DNSResourceRecord: ContinuousClock.Instant] = [:]
    /// Truncated queries waiting for the rest of their known answers (§7.2).
    var knownAnswers = MDNSKnownAnswerCollector()
    var nextID: UInt64 = 1
    var stopped = false
    var random = SystemRandomNumberGenerator()
    /// Probes, announcements and goodbyes waiting to go out together (`multicastSoon`).
    var pendingMulticast: [DNSMessage] = []
    var flushScheduled = false
    /// How long `multicastSoon` gathers messages: a fleet's publications then probe and announce in a few
    /// hundred full packets instead of five datagrams each, which flooded receivers' socket buffers.
    static let coalescingWindow: Duration = .milliseconds(20)
    /// This host's addresses (every interface), read again when older than `localAddressesLifetime`: a QU
    /// question from one of them is answered by multicast (`MDNSAnswerPlanner.plan`'s `querierIsLocal`).
    var localAddresses: Set<[UInt8]> = []
    var localAddressesRead: ContinuousClock.Instant?
    static let localAddressesLifetime: Duration = .seconds(5)
    /// Datagrams that did not decode (counted, never answered).
    package private(set) var malformedDatagrams = 0
    /// Echoes of our own multicast, dropped unread.
    package private(set) var echoesDropped = 0
    /// Records in the querier's cache (received from others).
    package var cachedRecords: Int { cache.count }
    /// Diagnostics: when set, every datagram sent and received and every decision (floor, conflict, rename,
    /// establishment) is described to it, on the actor. Tests attach it to a failure.
    package private(set) var trace: (@Sendable (String) -> Void)?

    package func setTrace(_ trace: (@Sendable (String) -> Void)?) { self.trace = trace }

    func note(_ text: @autoclosure () -> String) { trace?(text()) }

    /// The owner of the host's own address records in the index.
    static let hostOwner: MDNSRecordIndex.Owner = 0

    init(configuration: Configuration, label: String) throws(DiscoveryError) {
        executor = DispatchQueueExecutor(label: label)
        self.configuration = configuration
        var generator = SystemRandomNumberGenerator()
        let randomBits: UInt64 = generator.next() & 0xFFFF_FFFF_FFFF
        queryID = UInt16.random(in: 1...UInt16.max, using: &generator)
        let hostLabel = configuration.hostLabel ?? "matter-" + hexDigits(randomBits, width: 12).lowercased()
        do throws(DNSMessageError) {
            host = try DNSName(labels: [Array(hostLabel.utf8), MDNSServiceRecords.domain])
        } catch {
            throw .invalidRecord("host label '\(hostLabel)': \(error.reason)")
        }
        hostName = host.description
    }

    /// Opens the sockets and starts answering. Throws `.network` when no socket can be opened (port 5353 taken
    /// without SO_REUSEPORT, no multicast-capable interface...).
    package static func start(_ configuration: Configuration = Configuration(), label: String = "matter.mdns")
        async throws(DiscoveryError) -> EmbeddedMDNS
    {
        let mdns = try EmbeddedMDNS(configuration: configuration, label: label)
        try await mdns.open()
        return mdns
    }

    private func open() throws(DiscoveryError) {
        guard !configuration.interfaces.isEmpty else {
            throw .network("no multicast-capable interface to run mDNS on")
        }
        var families: [MDNSSocket.Family] = []
        if configuration.ipv4 { families.append(.ipv4) }
        if configuration.ipv6 { families.append(.ipv6) }
        var failures: [String] = []
        for family in families {
            let interfaces = configuration.interfaces.filter { family == .ipv4 ? !$0.ipv4.isEmpty : !$0.ipv6.isEmpty }
            guard !interfaces.isEmpty else { continue }
            do {
                let socket = try MDNSSocket(
                    family: family, port: configuration.port, interfaces: interfaces, queue: executor.queue)
                socket.start { [weak self] datagram in
                    guard let self else { return }
                    self.assumeIsolated { $0.receive(datagram, family: family) }
                }
                sockets.append(socket)
            } catch {
                failures.append(error.description)
            }
        }
        guard !sockets.isEmpty else {
            throw .network(failures.isEmpty ? "no interface has an address to use" : failures.joined(separator: "; "))
        }
        for interface in configuration.interfaces {
            for address in interface.ipv4 + interface.ipv6 where ownInterfaces[address] == nil {
                ownInterfaces[address] = interface.index
            }
        }
        let addresses = configuration.interfaces.flatMap { interface in
            (configuration.ipv4 ? interface.ipv4 : []) + (configuration.ipv6 ? interface.ipv6 : [])
        }.compactMap { DNSSDAddress(bytes: $0) }
        for record in MDNSServiceRecords.hostRecords(hostName: host, addresses: addresses) {
            index.insert(record, unique: true, owner: EmbeddedMDNS.hostOwner)
        }
    }

    /// Withdraws everything (goodbyes go out), ends pending browses with `.stopped`, closes the sockets.
    /// Idempotent.
    package func stop() {
        guard !stopped else { return }
        for id in Array(publications.keys) { withdrawNow(id, error: .stopped) }
        let host = index.remove(owner: EmbeddedMDNS.hostOwner)
        sendGoodbyes(host.map(\.record))
        flushMulticast()
        stopped = true
        for token in Array(browses.keys) { finishBrowse(token, .stopped) }
        for socket in sockets { socket.close() }
        sockets.removeAll()
    }

    func newID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    /// Runs `action` on the actor after `delay`.
    func schedule(after delay: Duration, _ action: @escaping @Sendable (isolated EmbeddedMDNS) -> Void) {
        executor.queue.asyncAfter(deadline: .now() + delay.dispatchInterval) { [weak self] in
            guard let self else { return }
            self.assumeIsolated { action($0) }
        }
    }

    // MARK: - sending

    /// Multicasts `message` (split into packets that fit) on every socket and interface; a query goes with
    /// `queryID`.
    func multicast(_ message: DNSMessage) {
        guard !stopped else { return }
        var message = message
        if !message.isResponse { message.id = queryID }
        let now = ContinuousClock.now
        for record in message.answers where record.ttl > 0 { lastMulticast[Self.identity(record)] = now }
        for packet in message.packets(maxBytes: EmbeddedMDNS.maxPacketBytes) {
            let bytes = packet.serialize()
            sent.insert(bytes, now: now)
            for socket in sockets {
                let failures = socket.sendMulticast(bytes)
                note("-> multicast \(packet.summary)\(failures.isEmpty ? "" : " FAILED \(failures)")")
            }
        }
    }

    /// Multicasts `message` within `coalescingWindow`, merged with the others sent meanwhile (whole messages
    /// per packet, `DNSMessage.coalesce`).
    func multicastSoon(_ message: DNSMessage) {
        guard !stopped else { return }
        pendingMulticast.append(message)
        guard !flushScheduled else { return }
        flushScheduled = true
        schedule(after: EmbeddedMDNS.coalescingWindow) { $0.flushMulticast() }
    }

    func flushMulticast() {
        flushScheduled = false
        let messages = pendingMulticast
        pendingMulticast.removeAll()
        for message in DNSMessage.coalesce(messages, maxBytes: EmbeddedMDNS.maxPacketBytes) { multicast(message) }
    }

    /// Sends `message` to one address and port through the socket of its family.
    func unicast(
        _ message: DNSMessage, to address: [UInt8], port: UInt16, interfaceIndex: UInt32, family: MDNSSocket.Family
    ) {
        guard !stopped, let socket = sockets.first(where: { $0.family == family }) else { return }
        for packet in message.packets(maxBytes: EmbeddedMDNS.maxPacketBytes) {
            let failure = socket.send(packet.serialize(), to: address, port: port, scope: interfaceIndex)
            note("-> unicast \(address):\(port) \(packet.summary)\(failure.map { " FAILED \($0)" } ?? "")")
        }
    }

    /// Multicasts `records` with TTL 0, merged with other goodbyes and announcements (`stop()` flushes them
    /// before the sockets close).
    func sendGoodbyes(_ records: [DNSResourceRecord]) {
        guard !records.isEmpty else { return }
        for record in records { lastMulticast[Self.identity(record)] = nil }
        multicastSoon(
            .response(
                answers: records.map { record in
                    var goodbye = record
                    goodbye.ttl = 0
                    return goodbye
                }))
    }

    static func identity(_ record: DNSResourceRecord) -> DNSResourceRecord {
        var key = record
        key.ttl = 0
        key.cacheFlush = false
        return key
    }

    /// What a browse reads: the cache and this responder's own records.
    var known: MDNSKnownRecords { MDNSKnownRecords(received: cache, own: index, ownInterfaces: ownInterfaces) }

    /// Re-reads the browses `records` bear on after they entered or left the index: the querier does not
    /// receive its own records (their echoes are dropped).
    func indexChanged(_ records: [DNSResourceRecord]) {
        guard !browses.isEmpty, !records.isEmpty else { return }
        evaluateBrowses(changed: records)
    }

    /// Whether `record` (same name, type and data) is in the index now.
    func isPublished(_ record: DNSResourceRecord) -> Bool { index.contains(record) }

    /// Whether `address` is one of this host's (read with getifaddrs at most every few seconds).
    func isLocalAddress(_ address: [UInt8], now: ContinuousClock.Instant) -> Bool {
        if localAddressesRead.map({ $0.duration(to: now) >= Self.localAddressesLifetime }) ?? true {
            localAddresses = Set(MDNSInterface.all().flatMap { $0.ipv4 + $0.ipv6 })
            localAddressesRead = now
        }
        return localAddresses.contains(address)
    }

    // MARK: - receiving

    func receive(_ datagram: MDNSDatagram, family: MDNSSocket.Family) {
        guard !stopped else { return }
        if sent.contains(datagram.bytes, now: .now) {
            echoesDropped += 1
            return
        }
        let message: DNSMessage
        do {
            message = try DNSMessage(bytes: datagram.bytes)
        } catch {
            malformedDatagrams += 1
            note("<- malformed from \(datagram.source):\(datagram.sourcePort): \(error)")
            return
        }
        note("<- \(datagram.source):\(datagram.sourcePort) if \(datagram.interfaceIndex) \(message.summary)")
        if message.isResponse {
            // §6: responses must come from port 5353; anything else is not a peer responder.
            guard datagram.sourcePort == configuration.port else { return }
            receiveResponse(message, interfaceIndex: datagram.interfaceIndex)
        } else {
            receiveQuery(message, datagram: datagram, family: family)
        }
    }

    private func receiveResponse(_ message: DNSMessage, interfaceIndex: UInt32) {
        var checked = Set<UInt64>()
        for record in message.answers + message.additionals {
            guard let id = publicationsByName[record.name], checked.insert(id).inserted else { continue }
            checkConflict(id, message)
        }
        let now = ContinuousClock.now
        let changed = (message.answers + message.additionals).filter { record in
            cache.insert(record, interfaceIndex: interfaceIndex, now: now)
        }
        if !changed.isEmpty, !browses.isEmpty { evaluateBrowses(changed: changed) }
    }

    private func receiveQuery(_ message: DNSMessage, datagram: MDNSDatagram, family: MDNSSocket.Family) {
        if !message.authorities.isEmpty {
            var checked = Set<UInt64>()
            for question in message.questions {
                guard let id = publicationsByName[question.name], checked.insert(id).inserted else { continue }
                checkConflict(id, message)
            }
        }
        // §7.2: a truncated query is answered once its known answers are all in (400-500 ms).
        let querier = MDNSKnownAnswerCollector.Querier(
            address: datagram.source, port: datagram.sourcePort, interfaceIndex: datagram.interfaceIndex)
        switch knownAnswers.accept(message, from: querier) {
        case .answer(let query):
            answer(query, datagram: datagram, family: family)
        case .wait:
            note("truncated query from \(datagram.source):\(datagram.sourcePort): waiting for its known answers")
            schedule(after: .milliseconds(Int.random(in: 400...500, using: &random))) { me in
                guard let query = me.knownAnswers.take(querier) else { return }
                me.answer(query, datagram: datagram, family: family)
            }
        case .merged:
            break
        }
    }

    /// Answers a query (all of it: a truncated one with every known answer that followed).
    private func answer(_ message: DNSMessage, datagram: MDNSDatagram, family: MDNSSocket.Family) {
        let now = ContinuousClock.now
        let querierIsLocal =
            message.questions.contains(where: \.unicastResponse) && isLocalAddress(datagram.source, now: now)
        let plan = MDNSAnswerPlanner.plan(
            message, sourcePort: datagram.sourcePort, port: configuration.port, querierIsLocal: querierIsLocal,
            index: index
        ) { record in
            guard let last = lastMulticast[Self.identity(record)] else { return false }
            return last.duration(to: now) < .seconds(Int64(record.ttl / 4))
        }
        if var pending = plan.multicast {
            // §6: not again within a second, except to defend a name against a probe (§8.1: 250 ms).
            let floor: Duration = message.authorities.isEmpty ? .seconds(1) : .milliseconds(250)
            pending.answers.removeAll { record in
                let recent = lastMulticast[Self.identity(record)].map { $0.duration(to: now) < floor } ?? false
                if recent { note("not multicast again within \(floor): \(record.name) \(record.type)") }
                return recent
            }
            let response = pending
            if !response.answers.isEmpty {
                if plan.multicastDelayed {
                    let delay = Duration.milliseconds(Int.random(in: 20...120, using: &random))
                    schedule(after: delay) { me in
                        // Only what is still published: a withdrawal or rename meanwhile has said goodbye to
                        // the rest, which this late answer would otherwise bring back for a TTL.
                        var current = response
                        current.answers.removeAll { !me.isPublished($0) }
                        current.additionals.removeAll { !me.isPublished($0) }
                        guard !current.answers.isEmpty else { return }
                        for packet in MDNSAnswerPlanner.packets(
                            current, index: me.index, maxBytes: Self.maxPacketBytes)
                        {
                            me.multicast(packet)
                        }
                    }
                } else {
                    for packet in MDNSAnswerPlanner.packets(response, index: index, maxBytes: Self.maxPacketBytes) {
                        multicast(packet)
                    }
                }
            }
        }
        for response in [plan.unicast, plan.legacy].compactMap({ $0 }) {
            unicast(
                response, to: datagram.source, port: datagram.sourcePort, interfaceIndex: datagram.interfaceIndex,
                family: family)
        }
    }
}
