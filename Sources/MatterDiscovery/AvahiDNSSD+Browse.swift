import Dispatch
import MatterCore

/// One running `browse` call of `AvahiDNSSD`: its browser, the resolvers in flight and what they found.
struct BrowseOperation {
    struct Found {
        var service: DNSSDResolvedService
        /// Address learnt from each browse item (interface × protocol), in arrival order.
        var addresses: [(item: AvahiBrowseItem, address: DNSSDAddress)]
    }

    let query: DNSSDQuery
    let limit: Int?
    let accept: @Sendable (DNSSDResolvedService) -> Bool
    var continuation: CheckedContinuation<Result<[DNSSDResolvedService], DiscoveryError>, Never>
    var browserToken: UInt64?
    /// Resolver token → the item it resolves.
    var pending: [UInt64: AvahiBrowseItem] = [:]
    /// Keyed by lower-cased instance name (DNS names compare case-insensitively).
    var found: [String: Found] = [:]
    var order: [String] = []
    var rejected: Set<String> = []
    /// Items the browser reports as present (added by `new`, taken out by `remove`).
    var present: Set<AvahiBrowseItem> = []
    /// Resolutions of an item that failed so far (Avahi gives a resolver 5 s; a responder busy with a
    /// fleet's announcements can take longer): each failure is tried again, later, while the item is present.
    var failures: [AvahiBrowseItem: Int] = [:]
    var allForNow = false
    /// Set when `limit` instances have stayed resolved for `settleDelay` (a settle timer ran).
    var settled = false
    var settleScheduled = false

    var results: [DNSSDResolvedService] {
        let all = order.compactMap { key -> DNSSDResolvedService? in
            guard var entry = found[key] else { return nil }
            var seen = Set<DNSSDAddress>()
            entry.service.addresses = entry.addresses.map(\.address).filter { seen.insert($0).inserted }
            return entry.service
        }
        return Array(all.prefix(limit ?? all.count))
    }

    /// True when `limit` instances are resolved and none of them still has a resolver running.
    var isSatisfied: Bool {
        guard let limit, order.count >= limit else { return false }
        let wanted = Set(order.prefix(limit))
        return !pending.values.contains { wanted.contains($0.name.lowercased()) }
    }

    /// Done early when `limit` instances are in and either the browser has reported its first
    /// complete round or they have stayed complete for `settleDelay`. Avahi reports that round
    /// about a second after the browse starts, long after a live device has answered: waiting for it
    /// would add that second to every commissioning by discriminator and every operational resolve.
    var isComplete: Bool { isSatisfied && (allForNow || settled) }

    /// How long a satisfied browse waits for more of its instances' items (the other address
    /// family, another interface), which arrive within milliseconds of the first.
    static let settleDelay: Duration = .milliseconds(50)

    /// The wait before trying a failed resolution again: 1, 2, 4, 8 s, then every 8 s.
    static func retryDelay(afterFailures failures: Int) -> Duration { .seconds(1 << min(max(failures - 1, 0), 3)) }
}

extension AvahiDNSSD {
    package func browse(
        _ query: DNSSDQuery, timeout: Duration, limit: Int?,
        accept: @escaping @Sendable (DNSSDResolvedService) -> Bool
    ) async throws(DiscoveryError) -> [DNSSDResolvedService] {
        guard !stopped else { throw .stopped }
        guard connection != nil, clientState == .running || clientState == .registering else {
            throw .daemonUnavailable(detail: "not connected to avahi-daemon")
        }
        if let limit, limit <= 0 { return [] }
        let token = newID()
        let queue = executor.queue
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                startBrowse(
                    token, BrowseOperation(query: query, limit: limit, accept: accept, continuation: continuation),
                    timeout: timeout)
            }
        } onCancel: {
            queue.async { [weak self] in
                guard let self else { return }
                self.assumeIsolated { $0.finishBrowse(token, .cancelled) }
            }
        }
        return try result.get()
    }

    private func startBrowse(_ token: UInt64, _ operation: BrowseOperation, timeout: Duration) {
        guard let connection else {
            operation.continuation.resume(returning: .failure(.daemonUnavailable(detail: "not connected")))
            return
        }
        var operation = operation
        do {
            let browser = try connection.newServiceBrowser(type: operation.query.browseType)
            operation.browserToken = browser
            browserOwners[browser] = token
        } catch {
            operation.continuation.resume(returning: .failure(error))
            return
        }
        browses[token] = operation
        executor.queue.asyncAfter(deadline: .now() + timeout.dispatchInterval) { [weak self] in
            guard let self else { return }
            self.assumeIsolated { $0.finishBrowse(token, nil) }
        }
    }

    /// Ends a browse: frees its browser and resolvers and resumes the caller with the results, or
    /// with `error`. Does nothing for a browse already finished.
    func finishBrowse(_ token: UInt64, _ error: DiscoveryError?) {
        guard let operation = browses.removeValue(forKey: token) else { return }
        if let browser = operation.browserToken {
            connection?.free(browser)
            browserOwners[browser] = nil
        }
        for resolver in operation.pending.keys {
            connection?.free(resolver)
            resolverOwners[resolver] = nil
        }
        if let error {
            operation.continuation.resume(returning: .failure(error))
        } else {
            operation.continuation.resume(returning: .success(operation.results))
        }
    }

    func browserEvent(_ token: UInt64, _ event: AvahiBrowseEvent) {
        guard var operation = browses[token], let connection else { return }
        switch event {
        case .new(let item):
            guard operation.query.accepts(instanceName: item.name), !operation.pending.values.contains(item) else {
                return
            }
            operation.present.insert(item)
            startResolver(item, in: &operation, token: token, connection: connection)
        case .remove(let item):
            operation.present.remove(item)
            operation.failures[item] = nil
            let key = item.name.lowercased()
            for (resolver, pendingItem) in operation.pending where pendingItem == item {
                connection.free(resolver)
                resolverOwners[resolver] = nil
                operation.pending[resolver] = nil
            }
            if var entry = operation.found[key] {
                entry.addresses.removeAll { $0.item == item }
                if entry.addresses.isEmpty && !operation.pending.values.contains(where: { $0.name.lowercased() == key })
                {
                    operation.found[key] = nil
                    operation.order.removeAll { $0 == key }
                } else {
                    operation.found[key] = entry
                }
            }
        case .allForNow:
            operation.allForNow = true
        case .cacheExhausted:
            break
        case .failure(let code):
            browses[token] = operation
            finishBrowse(token, AvahiConnection.error(code, operation: "browse of \(operation.query.browseType)"))
            return
        }
        browses[token] = operation
        completeOrSettle(token)
    }

    /// Finishes a complete browse, or starts its settle timer once it is satisfied.
    private func completeOrSettle(_ token: UInt64) {
        guard var operation = browses[token] else { return }
        if operation.isComplete { return finishBrowse(token, nil) }
        guard operation.isSatisfied, !operation.settleScheduled else { return }
        operation.settleScheduled = true
        browses[token] = operation
        executor.queue.asyncAfter(deadline: .now() + BrowseOperation.settleDelay.dispatchInterval) { [weak self] in
            guard let self else { return }
            self.assumeIsolated { dnssd in
                dnssd.browses[token]?.settled = true
                if dnssd.browses[token]?.isComplete == true { dnssd.finishBrowse(token, nil) }
            }
        }
    }

    func resolverEvent(_ token: UInt64, resolver: UInt64, _ event: AvahiResolveEvent) {
        guard var operation = browses[token] else { return }
        connection?.free(resolver)
        resolverOwners[resolver] = nil
        guard let item = operation.pending.removeValue(forKey: resolver) else { return }
        switch event {
        case .failure(let code):
            logger.debug("resolving \(item.name) failed: \(AvahiConnection.error(code, operation: "resolve"))")
            let failures = (operation.failures[item] ?? 0) + 1
            operation.failures[item] = failures
            scheduleRetry(item, token: token, after: BrowseOperation.retryDelay(afterFailures: failures))
        case .found(let resolved):
            operation.failures[item] = nil
            let key = item.name.lowercased()
            guard !operation.rejected.contains(key) else { break }
            let pair = resolved.address.map { [(item: item, address: $0)] } ?? []
            if var entry = operation.found[key] {
                entry.addresses += pair
                operation.found[key] = entry
            } else {
                let service = DNSSDResolvedService(
                    serviceType: operation.query.serviceType, instanceName: resolved.name, hostName: resolved.hostName,
                    port: resolved.port, txt: DNSSDTXTRecord(wireStrings: resolved.txt), addresses: [])
                if operation.accept(service) {
                    operation.found[key] = BrowseOperation.Found(service: service, addresses: pair)
                    operation.order.append(key)
                } else {
                    operation.rejected.insert(key)
                }
            }
        }
        browses[token] = operation
        completeOrSettle(token)
    }

    /// Starts resolving `item` for the browse `token`.
    private func startResolver(
        _ item: AvahiBrowseItem, in operation: inout BrowseOperation, token: UInt64, connection: AvahiConnection
    ) {
        do {
            let resolver = try connection.newServiceResolver(item, type: operation.query.serviceType)
            resolverOwners[resolver] = token
            operation.pending[resolver] = item
        } catch {
            logger.debug("cannot resolve \(item.name): \(error)")
        }
    }

    /// Tries a failed resolution of `item` again after `delay`, if the browse still runs, the item is still
    /// present and nothing resolves it meanwhile.
    private func scheduleRetry(_ item: AvahiBrowseItem, token: UInt64, after delay: Duration) {
        executor.queue.asyncAfter(deadline: .now() + delay.dispatchInterval) { [weak self] in
            guard let self else { return }
            self.assumeIsolated { dnssd in
                guard var operation = dnssd.browses[token], let connection = dnssd.connection,
                    operation.present.contains(item), operation.failures[item] != nil,
                    !operation.pending.values.contains(item)
                else { return }
                dnssd.startResolver(item, in: &operation, token: token, connection: connection)
                dnssd.browses[token] = operation
            }
        }
    }
}
