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
    /// interval.
    func sendBrowseQuery(_ token: UInt64) {
        guard var browse = browses[token] else { return }
        let now = ContinuousClock.now
        cache.expire(now: now)
        let known = cache.knownAnswers(named: browse.browseName, type: .ptr, now: now)
        multicast(DNSMessage(questions: [DNSQuestion(name: browse.browseName, type: .ptr)], answers: known))
        let interval = browse.interval
        browse.interval = min(interval * 2, EmbeddedMDNS.maxQueryInterval)
        browses[token] = browse
        schedule(after: interval) { $0.sendBrowseQuery(token) }
    }

    /// Re-reads every browse from the cache (after new records arrived).
    func evaluateBrowses() {
        for token in Array(browses.keys) { evaluate(token) }
    }

    /// Resolves what the cache holds for a browse; finishes it once `limit` services are in, else asks for
    /// what is missing (SRV and TXT of an instance, A and AAAA of a host).
    func evaluate(_ token: UInt64) {
        guard var browse = browses[token] else { return }
        let now = ContinuousClock.now
        let (found, missing) = results(of: &browse, now: now)
        if let limit = browse.limit, found.count >= limit {
            browses[token] = browse
            finishBrowse(token, nil)
            return
        }
        var questions: [DNSQuestion] = []
        for item in missing where browse.asked[item].map({ $0.duration(to: now) >= .seconds(1) }) ?? true {
            browse.asked[item] = now
            switch item {
            case .service(let instance):
                questions += [DNSQuestion(name: instance, type: .srv), DNSQuestion(name: instance, type: .txt)]
            case .addresses(let target):
                questions += [DNSQuestion(name: target, type: .a), DNSQuestion(name: target, type: .aaaa)]
            }
        }
        let retry = !missing.isEmpty && !browse.retryScheduled
        if retry { browse.retryScheduled = true }
        browses[token] = browse
        if !questions.isEmpty { multicast(DNSMessage(questions: questions)) }
        // What is still missing is asked for again (a second after the last time) even when nothing new
        // arrives: an answer lost in a flood would otherwise be waited for until the next PTR query.
        if retry {
            schedule(after: .milliseconds(500)) { me in
                me.browses[token]?.retryScheduled = false
                me.evaluate(token)
            }
        }
    }

    /// The services resolved so far for `browse` (accepted ones, in discovery order) and what is missing.
    func results(of browse: inout Browse, now: ContinuousClock.Instant) -> (
        [DNSSDResolvedService], [MDNSCache.Missing]
    ) {
        var found: [DNSSDResolvedService] = []
        var missing: [MDNSCache.Missing] = []
        for instance in cache.instances(of: browse.browseName, now: now)
        where browse.query.accepts(instanceName: instance.firstLabel) {
            switch cache.resolve(instance, serviceType: browse.query.serviceType, now: now) {
            case .resolved(let service):
                let accepted: Bool
                if let verdict = browse.verdicts[instance], verdict.service == service {
                    accepted = verdict.accepted
                } else {
                    accepted = browse.accept(service)
                    browse.verdicts[instance] = (service, accepted)
                }
                if accepted { found.append(service) }
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
