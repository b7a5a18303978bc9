internal import CAvahi

/// Owns every Avahi C handle of one `AvahiDNSSD`: the threaded poll, the client and each entry group,
/// browser and resolver made on it, plus the retained callback context of each. Used only from the
/// owning actor's queue; the poll thread never touches it (it sees only the immutable contexts).
/// Calls into Avahi hold the poll lock, as Avahi requires for calls from outside its thread.
final class AvahiConnection {
    enum Object {
        case group(OpaquePointer)
        case browser(OpaquePointer)
        case resolver(OpaquePointer)
    }

    private var poll: OpaquePointer?
    private(set) var client: OpaquePointer?
    private(set) var clientToken: UInt64?
    private var objects: [UInt64: Object] = [:]
    private var contexts: [UInt64: Unmanaged<AvahiCallbackContext>] = [:]
    private var nextToken: UInt64 = 1
    private let sink: @Sendable (UInt64, AvahiEvent) -> Void

    /// Creates the poll and starts its thread. `sink` receives every event, on the poll thread.
    init(sink: @escaping @Sendable (UInt64, AvahiEvent) -> Void) throws(DiscoveryError) {
        self.sink = sink
        guard let poll = avahi_threaded_poll_new() else {
            throw .avahi(operation: "poll creation", code: Int32(AVAHI_ERR_NO_MEMORY), message: "out of memory")
        }
        self.poll = poll
        guard avahi_threaded_poll_start(poll) == 0 else {
            avahi_threaded_poll_free(poll)
            self.poll = nil
            throw .avahi(operation: "poll thread start", code: Int32(AVAHI_ERR_FAILURE), message: "cannot start thread")
        }
    }

    deinit { shutdown() }

    var isShutDown: Bool { poll == nil }

    private func locked<R>(_ body: (OpaquePointer) -> R) -> R? {
        guard let poll else { return nil }
        avahi_threaded_poll_lock(poll)
        defer { avahi_threaded_poll_unlock(poll) }
        return body(poll)
    }

    private func makeContext() -> (UInt64, Unmanaged<AvahiCallbackContext>) {
        let token = nextToken
        nextToken += 1
        let context = Unmanaged.passRetained(AvahiCallbackContext(token: token, sink: sink))
        contexts[token] = context
        return (token, context)
    }

    private func dropContext(_ token: UInt64) { contexts.removeValue(forKey: token)?.release() }

    // MARK: - client

    /// Connects a new client (AVAHI_CLIENT_NO_FAIL: it waits in `.connecting` when D-Bus is up but
    /// the daemon is not). Returns the client's state right after creation.
    func connectClient() throws(DiscoveryError) -> AvahiClientStatus {
        freeClient()
        let (token, context) = makeContext()
        var error: Int32 = 0
        let created = locked { poll in
            avahi_client_new(
                avahi_threaded_poll_get(poll), AVAHI_CLIENT_NO_FAIL, avahiClientCallback,
                context.toOpaque(), &error)
        }
        guard let created, let client = created else {
            dropContext(token)
            throw AvahiConnection.error(error, operation: "client connection")
        }
        self.client = client
        clientToken = token
        let state = locked { _ in avahi_client_get_state(client) }
        switch state {
        case AVAHI_CLIENT_S_RUNNING: return .running
        case AVAHI_CLIENT_S_REGISTERING: return .registering
        case AVAHI_CLIENT_S_COLLISION: return .collision
        case AVAHI_CLIENT_CONNECTING: return .connecting
        default: return .failure
        }
    }

    /// Frees the client and, with it, every object made on it; releases all their contexts.
    func freeClient() {
        guard let client else { return }
        _ = locked { _ in avahi_client_free(client) }
        self.client = nil
        if let clientToken { dropContext(clientToken) }
        clientToken = nil
        for token in objects.keys { dropContext(token) }
        objects.removeAll()
    }

    var clientErrno: Int32 { client.flatMap { c in locked { _ in avahi_client_errno(c) } } ?? 0 }

    // MARK: - objects

    /// Frees one object (an entry group's records are withdrawn with goodbye packets).
    func free(_ token: UInt64) {
        guard let object = objects.removeValue(forKey: token) else { return }
        _ = locked { _ in
            switch object {
            case .group(let g): avahi_entry_group_free(g)
            case .browser(let b): avahi_service_browser_free(b)
            case .resolver(let r): avahi_service_resolver_free(r)
            }
        }
        dropContext(token)
    }

    func newEntryGroup() throws(DiscoveryError) -> UInt64 {
        guard let client else { throw .daemonUnavailable(detail: "not connected") }
        let (token, context) = makeContext()
        guard let made = locked({ _ in avahi_entry_group_new(client, avahiEntryGroupCallback, context.toOpaque()) }),
            let group = made
        else {
            dropContext(token)
            throw AvahiConnection.error(clientErrno, operation: "entry group creation")
        }
        objects[token] = .group(group)
        return token
    }

    private func group(_ token: UInt64) -> OpaquePointer? {
        if case .group(let g)? = objects[token] { return g }
        return nil
    }

    /// Adds service, subtypes and commits. Returns Avahi's code (0, or negative: AVAHI_ERR_COLLISION
    /// means a local name clash; try the next name).
    func addService(_ token: UInt64, record: DNSSDServiceRecord, name: String, txt: [[UInt8]]) -> Int32 {
        guard let group = group(token) else { return Int32(AVAHI_ERR_BAD_STATE) }
        let code = locked { _ -> Int32 in
            let added = AvahiStrings.withList(txt) { list in
                avahi_entry_group_add_service_strlst(
                    group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0),
                    name, record.serviceType, nil, nil, record.port, list)
            }
            guard let added else { return Int32(AVAHI_ERR_NO_MEMORY) }
            guard added == 0 else { return added }
            for subtype in record.subtypes {
                let rc = avahi_entry_group_add_service_subtype(
                    group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0),
                    name, record.serviceType, nil, MatterDNSSD.subtypeServiceName(subtype, of: record.serviceType))
                guard rc == 0 else { return rc }
            }
            return avahi_entry_group_commit(group)
        }
        return code ?? Int32(AVAHI_ERR_BAD_STATE)
    }

    /// Replaces the TXT record of an added service in place.
    func updateTXT(_ token: UInt64, record: DNSSDServiceRecord, name: String, txt: [[UInt8]]) -> Int32 {
        guard let group = group(token) else { return Int32(AVAHI_ERR_BAD_STATE) }
        let code = locked { _ -> Int32 in
            AvahiStrings.withList(txt) { list in
                avahi_entry_group_update_service_txt_strlst(
                    group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0),
                    name, record.serviceType, nil, list)
            } ?? Int32(AVAHI_ERR_NO_MEMORY)
        }
        return code ?? Int32(AVAHI_ERR_BAD_STATE)
    }

    /// Adds raw records and commits. Unique records (SRV, TXT) get `AVAHI_PUBLISH_UNIQUE`, plus
    /// `AVAHI_PUBLISH_NO_PROBE` unless `probe`; shared ones (PTR) no flag. Returns Avahi's code
    /// (AVAHI_ERR_COLLISION: a local name clash).
    func addRecords(_ token: UInt64, _ records: [AvahiRawRecord], probe: Bool) -> Int32 {
        guard let group = group(token) else { return Int32(AVAHI_ERR_BAD_STATE) }
        let code = locked { _ -> Int32 in
            for record in records {
                var flags: UInt32 = 0
                if record.unique {
                    flags =
                        UInt32(AVAHI_PUBLISH_UNIQUE.rawValue) | (probe ? 0 : UInt32(AVAHI_PUBLISH_NO_PROBE.rawValue))
                }
                let rc = Self.addRecord(group, record, flags: flags)
                guard rc == 0 else { return rc }
            }
            return avahi_entry_group_commit(group)
        }
        return code ?? Int32(AVAHI_ERR_BAD_STATE)
    }

    /// Replaces a unique record of a committed group in place (`AVAHI_PUBLISH_UPDATE`: Avahi
    /// re-announces it with the cache-flush bit, so peers drop the old data).
    func updateRecord(_ token: UInt64, _ record: AvahiRawRecord) -> Int32 {
        guard let group = group(token) else { return Int32(AVAHI_ERR_BAD_STATE) }
        let flags =
            UInt32(AVAHI_PUBLISH_UNIQUE.rawValue) | UInt32(AVAHI_PUBLISH_NO_PROBE.rawValue)
            | UInt32(AVAHI_PUBLISH_UPDATE.rawValue)
        return locked { _ in Self.addRecord(group, record, flags: flags) } ?? Int32(AVAHI_ERR_BAD_STATE)
    }

    private static func addRecord(_ group: OpaquePointer, _ record: AvahiRawRecord, flags: UInt32) -> Int32 {
        record.rdata.withUnsafeBytes { bytes in
            avahi_entry_group_add_record(
                group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(flags),
                record.name, UInt16(AVAHI_DNS_CLASS_IN), record.type, record.ttl, bytes.baseAddress,
                bytes.count)
        }
    }

    /// The daemon's host name with its domain (`me-h1.local`), the target of our SRV records.
    var hostNameFQDN: String? {
        guard let client else { return nil }
        return locked { _ in avahi_client_get_host_name_fqdn(client).map { String(cString: $0) } } ?? nil
    }

    /// The daemon's domain (`local`).
    var domainName: String? {
        guard let client else { return nil }
        return locked { _ in avahi_client_get_domain_name(client).map { String(cString: $0) } } ?? nil
    }

    /// A service instance's full name in Avahi's escaped text form (`avahi_service_name_join`), or
    /// nil when Avahi finds it invalid.
    static func serviceName(instance: String, type: String, domain: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(AVAHI_DOMAIN_NAME_MAX))
        guard avahi_service_name_join(&buffer, buffer.count, instance, type, domain) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Withdraws a group's entries, keeping the group for new ones.
    func reset(_ token: UInt64) {
        guard let group = group(token) else { return }
        _ = locked { _ in avahi_entry_group_reset(group) }
    }

    func newServiceBrowser(type: String) throws(DiscoveryError) -> UInt64 {
        guard let client else { throw .daemonUnavailable(detail: "not connected") }
        let (token, context) = makeContext()
        guard
            let made = locked({ _ in
                avahi_service_browser_new(
                    client, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), type, nil,
                    AvahiLookupFlags(0), avahiServiceBrowserCallback, context.toOpaque())
            }), let browser = made
        else {
            dropContext(token)
            throw AvahiConnection.error(clientErrno, operation: "browse of \(type)")
        }
        objects[token] = .browser(browser)
        return token
    }

    /// Resolves one browse item, asking for an address of the family the item was seen on.
    func newServiceResolver(_ item: AvahiBrowseItem, type: String) throws(DiscoveryError) -> UInt64 {
        guard let client else { throw .daemonUnavailable(detail: "not connected") }
        let (token, context) = makeContext()
        guard
            let made = locked({ _ in
                avahi_service_resolver_new(
                    client, item.interface, item.proto, item.name, type, item.domain, item.proto,
                    AvahiLookupFlags(0), avahiServiceResolverCallback, context.toOpaque())
            }), let resolver = made
        else {
            dropContext(token)
            throw AvahiConnection.error(clientErrno, operation: "resolve of \(item.name)")
        }
        objects[token] = .resolver(resolver)
        return token
    }

    // MARK: - shutdown

    /// Withdraws every group (goodbye packets), stops the poll thread (after which no callback runs),
    /// frees the client with everything on it, the poll, and every context. Idempotent.
    func shutdown() {
        guard let poll else { return }
        for (token, object) in objects {
            if case .group = object { free(token) }
        }
        avahi_threaded_poll_stop(poll)
        if let client { avahi_client_free(client) }
        client = nil
        clientToken = nil
        objects.removeAll()
        for context in contexts.values { context.release() }
        contexts.removeAll()
        avahi_threaded_poll_free(poll)
        self.poll = nil
    }

    /// Avahi's text for an error code.
    static func reason(_ code: Int32) -> String { String(cString: avahi_strerror(code)) }

    /// Maps an Avahi error code to `DiscoveryError`: a missing daemon or bus is `.daemonUnavailable`.
    static func error(_ code: Int32, operation: String) -> DiscoveryError {
        let message = String(cString: avahi_strerror(code))
        switch code {
        case Int32(AVAHI_ERR_NO_DAEMON), Int32(AVAHI_ERR_DISCONNECTED), Int32(AVAHI_ERR_DBUS_ERROR):
            return .daemonUnavailable(detail: message)
        default:
            return .avahi(operation: operation, code: code, message: message)
        }
    }
}
