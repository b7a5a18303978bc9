/// What a responder sends for one received query: the decisions of RFC 6762 §5.4 (QU), §6 (answers,
/// additionals, delays), §6.7 (legacy unicast) and §7.1 (known-answer suppression), without sockets or clocks.
package struct MDNSResponsePlan: Sendable, Equatable {
    /// Response for the multicast group, or nil.
    package var multicast: DNSMessage?
    /// True when `multicast` answers with a shared record (a PTR): sent after a random 20–120 ms (§6), so the
    /// answers of several responders do not collide. All-unique answers go at once.
    package var multicastDelayed = false
    /// Response for the querier's own address and port (QU questions), or nil.
    package var unicast: DNSMessage?
    /// Response to a legacy (one-shot, source port not 5353) querier, or nil.
    package var legacy: DNSMessage?

    package static let none = MDNSResponsePlan()
}

package enum MDNSAnswerPlanner {
    /// The mDNS port (RFC 6762 §3): a responder's default.
    package static let port: UInt16 = 5353
    /// Largest TTL in a legacy unicast answer (§6.7).
    package static let legacyMaxTTL: UInt32 = 10

    /// Plans the answers to `query`, received from `sourcePort`; `port` is the responder's own mDNS port (5353,
    /// or a test's port): a query from any other port is a legacy one (§6.7). `multicastRecently(record)` says
    /// whether the record went to the group within the last quarter of its TTL: a QU question is answered by
    /// unicast only then, else by multicast (§5.4), which also reaches another process sharing the port on the
    /// querier's host. `querierIsLocal`: the query came from an address of this host, where the port is shared
    /// (SO_REUSEPORT) and the kernel would hand a unicast answer to any one of the sockets, perhaps the sender's
    /// (§15.1): its QU questions are answered by multicast.
    package static func plan(
        _ query: DNSMessage, sourcePort: UInt16, port: UInt16 = MDNSAnswerPlanner.port, querierIsLocal: Bool = false,
        index: MDNSRecordIndex, multicastRecently: (DNSResourceRecord) -> Bool = { _ in false }
    ) -> MDNSResponsePlan {
        // §18.3, §18.11: only standard queries with RCODE 0; responses are not questions.
        guard !query.isResponse, query.opcode == 0, query.rcode == 0, !query.questions.isEmpty else { return .none }
        let legacy = sourcePort != port
        var known: [DNSResourceRecord: UInt32] = [:]
        for record in query.answers {
            var key = record
            key.ttl = 0
            key.cacheFlush = false
            known[key] = max(known[key] ?? 0, record.ttl)
        }
        func isKnown(_ record: DNSResourceRecord) -> Bool {
            var key = record
            key.ttl = 0
            key.cacheFlush = false
            guard let ttl = known[key] else { return false }
            return ttl >= record.ttl / 2
        }

        var multicast = Answers()
        var unicast = Answers()
        for question in query.questions {
            for entry in index.answers(to: question) where !isKnown(entry.record) {
                if legacy || (question.unicastResponse && !querierIsLocal && multicastRecently(entry.record)) {
                    unicast.add(entry)
                } else {
                    multicast.add(entry)
                }
            }
        }
        var plan = MDNSResponsePlan()
        if !multicast.entries.isEmpty {
            plan.multicast = DNSMessage.response(
                answers: multicast.entries.map(\.record),
                additionals: additionals(for: multicast, index: index, excluding: isKnown).map(\.record))
            plan.multicastDelayed = multicast.entries.contains { !$0.unique }
        }
        if !unicast.entries.isEmpty {
            let extra = additionals(for: unicast, index: index, excluding: isKnown).map(\.record)
            if legacy {
                plan.legacy = DNSMessage.response(
                    id: query.id, questions: query.questions, answers: unicast.entries.map { legacyForm($0.record) },
                    additionals: extra.map(legacyForm))
            } else {
                plan.unicast = DNSMessage.response(answers: unicast.entries.map(\.record), additionals: extra)
            }
        }
        return plan
    }

    /// §6.7: TTL at most 10 s and no cache-flush bit.
    static func legacyForm(_ record: DNSResourceRecord) -> DNSResourceRecord {
        var record = record
        record.ttl = min(record.ttl, legacyMaxTTL)
        record.cacheFlush = false
        return record
    }

    /// Answers in order without duplicates.
    struct Answers {
        var entries: [MDNSRecordIndex.Entry] = []
        var seen: Set<DNSResourceRecord> = []
        mutating func add(_ entry: MDNSRecordIndex.Entry) {
            if seen.insert(entry.record).inserted { entries.append(entry) }
        }
    }

    /// `response` as packets of at most `maxBytes` in which each answer travels with its own additional records
    /// (RFC 6763 §12), each additional record once: split as one message, a large answer (a fleet's 1,000
    /// PTRs) would keep only the additionals that fit in its last packet, and the querier would then ask
    /// for every SRV and TXT again. A response that fits is returned as it is.
    package static func packets(_ response: DNSMessage, index: MDNSRecordIndex, maxBytes: Int) -> [DNSMessage] {
        guard response.serialize().count > maxBytes else { return [response] }
        var placed = Set(response.answers.map(identity))
        let offered = Set(response.additionals.map(identity))
        var groups: [DNSMessage] = []
        for answer in response.answers {
            var one = Answers()
            one.add(MDNSRecordIndex.Entry(record: answer, unique: answer.cacheFlush, owners: []))
            let extra = additionals(for: one, index: index, excluding: { _ in false }).map(\.record)
                .filter { record in offered.contains(identity(record)) && placed.insert(identity(record)).inserted }
            groups.append(
                DNSMessage(id: response.id, flags: response.flags, questions: [], answers: [answer], additionals: extra)
            )
        }
        var packets = DNSMessage.coalesce(groups, maxBytes: maxBytes)
        if !response.questions.isEmpty, !packets.isEmpty { packets[0].questions = response.questions }
        return packets
    }

    static func identity(_ record: DNSResourceRecord) -> DNSResourceRecord {
        var key = record
        key.ttl = 0
        key.cacheFlush = false
        return key
    }

    /// RFC 6763 §12: a PTR to an instance brings its SRV and TXT, an SRV brings its target's A and AAAA.
    static func additionals(
        for answers: Answers, index: MDNSRecordIndex, excluding isKnown: (DNSResourceRecord) -> Bool
    ) -> [MDNSRecordIndex.Entry] {
        var extra = Answers()
        extra.seen = answers.seen
        func addHost(_ target: DNSName) {
            for entry in index.records(named: target, type: .a) + index.records(named: target, type: .aaaa)
            where !isKnown(entry.record) {
                extra.add(entry)
            }
        }
        for entry in answers.entries {
            switch entry.record.data {
            case .ptr(let instance):
                for srv in index.records(named: instance, type: .srv) {
                    if !isKnown(srv.record) { extra.add(srv) }
                    if case .srv(_, _, _, let target) = srv.record.data { addHost(target) }
                }
                for txt in index.records(named: instance, type: .txt) where !isKnown(txt.record) { extra.add(txt) }
            case .srv(_, _, _, let target):
                addHost(target)
            default:
                break
            }
        }
        return extra.entries
    }
}
