/// The querier's cache of received records (RFC 6762 §10): each expires at its TTL; a goodbye (TTL 0) and a
/// cache-flush record's older siblings expire one second later (§10.1, §10.2). Resolution (`MDNSRecordLookup`)
/// reads PTR → SRV, TXT → A/AAAA from it, to the result type every `DNSSDBrowser` returns.
package struct MDNSCache: MDNSRecordLookup, Sendable {
    package typealias Instant = ContinuousClock.Instant

    package struct Cached: Sendable {
        package var record: DNSResourceRecord
        package var received: Instant
        package var expires: Instant
        package var interfaceIndex: UInt32

        /// Seconds of TTL left at `now`.
        package func remaining(at now: Instant) -> UInt32 {
            let left = now.duration(to: expires).components.seconds
            return left <= 0 ? 0 : UInt32(clamping: left)
        }
    }

    /// Cap on cached records (a flood of distinct records cannot grow memory without bound); when full, a new
    /// record replaces nothing and is dropped.
    package static let maxRecords = 100_000

    private var entries: [MDNSRecordIndex.Key: [DNSRecordData: Cached]] = [:]
    package private(set) var count = 0

    package init() {}

    /// Stores a received record. Returns true when the cache changed in a way a browse may care about (a new
    /// record or new data, or a goodbye).
    @discardableResult
    package mutating func insert(_ record: DNSResourceRecord, interfaceIndex: UInt32, now: Instant) -> Bool {
        let key = MDNSRecordIndex.Key(name: record.name, type: record.type)
        // Taken out and put back, so that it is changed in place: a browse's PTR name holds a whole fleet, which
        // a copy per received record would make quadratic.
        var group = entries.removeValue(forKey: key) ?? [:]
        defer { if !group.isEmpty { entries[key] = group } }
        let oneSecond = now + .seconds(1)
        if record.ttl == 0 {
            guard var cached = group[record.data] else { return false }
            cached.expires = min(cached.expires, oneSecond)
            group[record.data] = cached
            return true
        }
        if record.cacheFlush {
            for (data, var other) in group where data != record.data && other.received < now - .seconds(1) {
                other.expires = min(other.expires, oneSecond)
                group[data] = other
            }
        }
        let isNew = group[record.data] == nil
        if isNew {
            guard count < MDNSCache.maxRecords else { return false }
            count += 1
        }
        group[record.data] = Cached(
            record: record, received: now, expires: now + .seconds(Int64(record.ttl)), interfaceIndex: interfaceIndex)
        return isNew
    }

    /// Drops expired records.
    package mutating func expire(now: Instant) {
        for (key, group) in entries {
            let kept = group.filter { $0.value.expires > now }
            count -= group.count - kept.count
            entries[key] = kept.isEmpty ? nil : kept
        }
    }

    /// Live records of one name and type.
    package func records(named name: DNSName, type: DNSRecordType, now: Instant) -> [Cached] {
        (entries[MDNSRecordIndex.Key(name: name, type: type)] ?? [:]).values.filter { $0.expires > now }
            .sorted { $0.received < $1.received }
    }

    /// The live record of one name, type and data, if cached.
    package func record(named name: DNSName, type: DNSRecordType, data: DNSRecordData, now: Instant) -> Cached? {
        guard let cached = entries[MDNSRecordIndex.Key(name: name, type: type)]?[data], cached.expires > now else {
            return nil
        }
        return cached
    }

    /// Known answers to put in a query for `name`/`type` (§7.1): records with more than half their TTL left,
    /// with the TTL they have left.
    package func knownAnswers(named name: DNSName, type: DNSRecordType, now: Instant) -> [DNSResourceRecord] {
        records(named: name, type: type, now: now).compactMap { cached in
            let left = cached.remaining(at: now)
            guard left > cached.record.ttl / 2 else { return nil }
            var record = cached.record
            record.ttl = left
            record.cacheFlush = false
            return record
        }
    }

    /// Instances found by browsing `browseName` (PTR targets), oldest first.
    package func instances(of browseName: DNSName, now: Instant) -> [DNSName] {
        records(named: browseName, type: .ptr, now: now).compactMap { cached in
            if case .ptr(let instance) = cached.record.data { return instance }
            return nil
        }
    }

    /// What is still missing to resolve `instance`: SRV, TXT, or the addresses of the SRV's target.
    package enum Missing: Sendable, Hashable {
        case service(DNSName)
        case addresses(DNSName)
    }

    package enum Resolution: Sendable {
        case resolved(DNSSDResolvedService)
        case missing(Missing)
    }
}
