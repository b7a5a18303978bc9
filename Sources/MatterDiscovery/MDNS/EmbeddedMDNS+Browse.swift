import Dispatch
import MatterCore

extension EmbeddedMDNS {
    /// One running `browse` call.
    struct Browse {
        let query: DNSSDQuery
        let browseName: DNSName
        let limit: Int?
        let accept: @Sendable (DNSSDResolvedService) -> Bool
        var continuation: CheckedContinuation<Result<[DNSSDResolvedService], DiscoveryError>, Never>
        /// Interval until the next PTR query: 1 s, doubling up to `maxQueryInterval` (§5.2).
        var interval: Duration = .seconds(1)
        /// When each missing SRV/TXT or address was last asked for: asked again after a second at most.
        var asked: [MDNSCache.Missing: ContinuousClock.Instant] = [:]
        /// `accept`'s verdict on each instance as last resolved: asked again only when the service changes.
        var verdicts: [DNSName: (service: DNSSDResolvedService, accepted: Bool)] = [:]
        /// A re-evaluation is scheduled (to ask again for what is missing).
        var retryScheduled = false
        /// Instances resolved and accepted now. Kept up to date record by record (`reread`), so that a received
        /// packet costs what it brings, not a pass over every instance of a fleet.
        var accepted: Set<DNSName> = []
        /// What each instance not yet resolved still lacks.
        var missing: [DNSName: MDNSCache.Missing] = [:]
        /// SRV target → the instances on it: an address record re-reads them.
        var instancesByTarget: [DNSName: Set<DNSName>] = [:]
    }

    static let maxQueryInterval: Duration = .seconds(60)

    package func browse(
        _ query: DNSSDQuery, timeout: Duration, limit: Int?,
        accept: @escaping @Sendable (DNSSDResolvedService) -> Bool
    ) async throws(DiscoveryError) -> [DNSSDResolvedService] {
        guard !stopped else { throw .stopped }
        if let limit, limit <= 0 { return [] }
        let browseName = try MDNSServiceRecords.serviceName(query.serviceType, subtype: query.subtype)
        let token = newID()
        let queue = executor.queue
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                browses[token] = Browse(
                    query: query, browseName: browseName, limit: limit, accept: accept, continuation: continuation)
                schedule(after: timeout) { $0.finishBrowse(token, nil) }
                sendBrowseQuery(token)
                evaluate(token)
            }
        } onCancel: {
            queue.async { [weak self] in
                guard let self else { return }
                self.assumeIsolated { $0.finishBrowse(token, .cancelled) }
            }
        }
        return try result.get()
    }

    /// The browse's PTR question with the answers already cached (§7.1), then the next one at the doubled
    /// interval. The first one asks for unicast answers (QU, §5.4): a responder that multicast its records
    /// within the last second may not multicast them again (§6), so a querier that started just after (a
    /// commissioner after the device's announcements) would otherwise hear nothing until its second query, a
    /// second later; a responder that has not multicast them lately still answers by multicast.
    func sendBrowseQuery(_ token: UInt64) {
        guard var browse = browses[token] else { return }
        let now = ContinuousClock.now
        cache.expire(now: now)
        let known = cache.knownAnswers(named: browse.browseName, type: .ptr, now: now)
        let first = browse.interval == .seconds(1)
        multicast(
            DNSMessage(
                questions: [DNSQuestion(name: browse.browseName, type: .ptr, unicastResponse: first)], answers: known))
        let interval = browse.interval
        browse.interval = min(interval * 2, EmbeddedMDNS.maxQueryInterval)
        browses[token] = browse
        schedule(after: interval) { me in
            me.sendBrowseQuery(token)
            // A whole pass with each query: what expired since leaves the results.
            me.evaluate(token)
        }
    }

    /// Re-reads, in every browse, the instances `records` (just cached) bear on: a PTR of the browsed name
    /// brings its instance, an SRV or TXT its own instance, an address record the instances on that host.
    /// A goodbye among them is read again once the record has gone (a second later, RFC 6762 §10.1).
    func evaluateBrowses(changed records: [DNSResourceRecord]) {
        for (token, browse) in browses {
            var instances = Set<DNSName>()
            for record in records {
                switch record.data {
                case .ptr(let instance) where record.name == browse.browseName: instances.insert(instance)
                case .srv, .txt: instances.insert(record.name)
                case .a, .aaaa: instances.formUnion(browse.instancesByTarget[record.name] ?? [])
                default: break
                }
            }
            guard !instances.isEmpty else { continue }
            evaluate(token, instances: instances)
            if records.contains(where: { $0.ttl == 0 }) {
                let gone = instances
                schedule(after: .milliseconds(1100)) { $0.evaluate(token, instances: gone) }
            }
        }
    }

    /// Brings `browse`'s state up to date for `instance`: resolved and accepted, missing something, or gone.
    func reread(
        _ instance: DNSName, in browse: inout Browse, from known: MDNSKnownRecords, now: ContinuousClock.Instant
    ) {
        guard browse.query.accepts(instanceName: instance.firstLabel),
            known.record(named: browse.browseName, type: .ptr, data: .ptr(instance), now: now) != nil
        else {
            browse.accepted.remove(instance)
            browse.missing[instance] = nil
            return
        }
        if let target = known.target(of: instance, now: now) {
            browse.instancesByTarget[target, default: []].insert(instance)
        }
        switch known.resolve(instance, serviceType: browse.query.serviceType, now: now) {
        case .resolved(let service):
            browse.missing[instance] = nil
            if verdict(on: service, of: instance, in: &browse) {
                browse.accepted.insert(instance)
            } else {
                browse.accepted.remove(instance)
            }
        case .missing(let item):
            browse.accepted.remove(instance)
            browse.missing[instance] = item
        }
    }

    /// `accept`'s verdict on `service`, asked again only when the service changed.
    func verdict(on service: DNSSDResolvedService, of instance: DNSName, in browse: inout Browse) -> Bool {
        if let verdict = browse.verdicts[instance], verdict.service == service { return verdict.accepted }
        let accepted = browse.accept(service)
        browse.verdicts[instance] = (service, accepted)
        return accepted
    }

    /// Re-reads `instances` of a browse from the cache and the index (every instance they have when nil),
    /// finishes it once `limit` services are in, else asks for what those instances still miss (SRV and TXT of
    /// an instance, A and AAAA of a host), each at most once a second.
    func evaluate(_ token: UInt64, instances: Set<DNSName>? = nil) {
        guard var browse = browses[token] else { return }
        let now = ContinuousClock.now
        let known = self.known
        let reread: [DNSName]
        if let instances {
            reread = Array(instances)
        } else {
            browse.accepted = []
            browse.missing = [:]
            browse.instancesByTarget = [:]
            reread = known.instances(of: browse.browseName, now: now)
        }
        for instance in reread { self.reread(instance, in: &browse, from: known, now: now) }
        if let limit = browse.limit, browse.accepted.count >= limit {
            browses[token] = browse
            finishBrowse(token, nil)
            return
        }
        var questions: [DNSQuestion] = []
        var asked = Set<MDNSCache.Missing>()
        for instance in reread {
            guard let item = browse.missing[instance], asked.insert(item).inserted,
                browse.asked[item].map({ $0.duration(to: now) >= .seconds(1) }) ?? true
            else { continue }
            browse.asked[item] = now
            switch item {
            case .service(let instance):
                questions += [DNSQuestion(name: instance, type: .srv), DNSQuestion(name: instance, type: .txt)]
            case .addresses(let target):
                questions += [DNSQuestion(name: target, type: .a), DNSQuestion(name: target, type: .aaaa)]
            }
        }
        let retry = !browse.missing.isEmpty && !browse.retryScheduled
        if retry { browse.retryScheduled = true }
        browses[token] = browse
        if !questions.isEmpty { multicast(DNSMessage(questions: questions)) }
        // What is still missing is asked for again (a second after the last time) even when nothing new
        // arrives: an answer lost in a flood would otherwise be waited for until the next PTR query.
        if retry {
            schedule(after: .milliseconds(500)) { me in
                me.browses[token]?.retryScheduled = false
                guard let missing = me.browses[token]?.missing.keys else { return }
                me.evaluate(token, instances: Set(missing))
            }
        }
    }

    /// The services resolved so far for `browse` (accepted ones, in discovery order) and what is missing.
    func results(of browse: inout Browse, now: ContinuousClock.Instant) -> (
        [DNSSDResolvedService], [MDNSCache.Missing]
    ) {
        var found: [DNSSDResolvedService] = []
        var missing: [MDNSCache.Missing] = []
        let known = self.known
        for instance in known.instances(of: browse.browseName, now: now)
        where browse.query.accepts(instanceName: instance.firstLabel) {
            switch known.resolve(instance, serviceType: browse.query.serviceType, now: now) {
            case .resolved(let service):
                if verdict(on: service, of: instance, in: &browse) { found.append(service) }
            case .missing(let item): missing.append(item)
            }
        }
        return (found, missing)
    }

    /// Ends a browse with what it found (at most `limit`), or with `error`. Does nothing for one already ended.
    func finishBrowse(_ token: UInt64, _ error: DiscoveryError?) {
        guard var browse = browses.removeValue(forKey: token) else { return }
        if let error {
            browse.continuation.resume(returning: .failure(error))
            return
        }
        let found = results(of: &browse, now: ContinuousClock.now).0
        browse.continuation.resume(returning: .success(Array(found.prefix(browse.limit ?? found.count))))
    }
}
