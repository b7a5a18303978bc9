import Testing

@testable import MatterDiscovery

/// The embedded responder's decisions without sockets: the record index, which records answer a question
/// and how (RFC 6762 §5.4, §6, §6.7, §7.1), the probe tie-break (§8.2) and conflicts (§8.1, §9).
@Suite("mDNS responder logic")
struct MDNSResponderLogicTests {
    static let host = try! DNSName("me-h1.local")
    static let type = try! DNSName("_matterc._udp.local")

    static func service(_ name: String, port: UInt16 = 5540) -> DNSSDServiceRecord {
        var txt = DNSSDTXTRecord()
        txt.append("D", "3840")
        txt.append("CM", "1")
        return DNSSDServiceRecord(
            serviceType: "_matterc._udp", instanceName: name, port: port, subtypes: ["_L3840", "_CM"], txt: txt)
    }

    /// An index holding `count` commissionable services (owners 1...count) and the host's A record (owner 0).
    static func index(count: Int) throws -> MDNSRecordIndex {
        var index = MDNSRecordIndex()
        for record in MDNSServiceRecords.hostRecords(
            hostName: host, addresses: [DNSSDAddress("10.0.0.1")].compactMap { $0 })
        {
            index.insert(record, unique: true, owner: 0)
        }
        for number in 1...count {
            for (record, unique) in try MDNSServiceRecords.records(
                for: service("I\(number)"), instanceName: "I\(number)", hostName: host)
            {
                index.insert(record, unique: unique, owner: UInt64(number))
            }
        }
        return index
    }

    static func query(_ name: DNSName, _ type: DNSRecordType, qu: Bool = false, known: [DNSResourceRecord] = [])
        -> DNSMessage
    {
        DNSMessage(questions: [DNSQuestion(name: name, type: type, unicastResponse: qu)], answers: known)
    }

    static func instance(_ number: Int) throws -> DNSName {
        try type.prepending(Array("I\(number)".utf8))
    }

    // MARK: - index

    @Test func indexAnswersOneNameWhateverTheFleetSize() throws {
        let index = try Self.index(count: 1000)
        // 1000 × (enumeration PTR shared by all, type PTR, 2 subtype PTRs, SRV, TXT) + A; the enumeration PTR is
        // one record with 1000 owners.
        #expect(index.count == 1 + 1 + 1000 * 5)
        let srv = index.answers(to: DNSQuestion(name: try Self.instance(517), type: .srv))
        #expect(srv.map(\.record.type) == [.srv])
        #expect(index.answers(to: DNSQuestion(name: Self.type, type: .ptr)).count == 1000)
        let any = index.answers(to: DNSQuestion(name: try Self.instance(3), type: .any))
        #expect(Set(any.map(\.record.type)) == [.srv, .txt])
        let enumeration = index.answers(
            to: DNSQuestion(name: try MDNSServiceRecords.serviceName("_services._dns-sd._udp"), type: .ptr))
        #expect(enumeration.map(\.record.data) == [.ptr(Self.type)])
    }

    @Test func removingAnOwnerReturnsOnlyTheRecordsThatLeave() throws {
        var index = try Self.index(count: 2)
        let gone = index.remove(owner: 1)
        // Type PTR, two subtype PTRs, SRV, TXT: the enumeration PTR stays for owner 2.
        #expect(gone.count == 5)
        #expect(gone.allSatisfy { $0.record.name == (try? Self.instance(1)) || $0.record.type == .ptr })
        #expect(index.answers(to: DNSQuestion(name: try Self.instance(1), type: .any)).isEmpty)
        #expect(!index.contains(name: try Self.instance(1)))
        let last = index.remove(owner: 2)
        #expect(last.contains { $0.record.name == (try? MDNSServiceRecords.serviceName("_services._dns-sd._udp")) })
        #expect(index.remove(owner: 2).isEmpty)
    }

    // MARK: - answers

    @Test func sharedAnswersAreDelayedAndCarryTheInstanceRecords() throws {
        let index = try Self.index(count: 1)
        let subtype = try MDNSServiceRecords.serviceName("_matterc._udp", subtype: "_L3840")
        let plan = MDNSAnswerPlanner.plan(Self.query(subtype, .ptr), sourcePort: 5353, index: index)
        let response = try #require(plan.multicast)
        #expect(plan.multicastDelayed)
        #expect(plan.unicast == nil && plan.legacy == nil)
        #expect(response.isResponse && response.flags & DNSMessage.Flags.authoritative != 0)
        #expect(response.answers.map(\.data) == [.ptr(try Self.instance(1))])
        #expect(response.additionals.map(\.type) == [.srv, .a, .txt])
    }

    @Test func uniqueAnswersGoAtOnce() throws {
        let index = try Self.index(count: 3)
        let plan = MDNSAnswerPlanner.plan(Self.query(try Self.instance(2), .srv), sourcePort: 5353, index: index)
        let response = try #require(plan.multicast)
        #expect(!plan.multicastDelayed)
        #expect(response.answers.count == 1)
        #expect(response.answers.first?.cacheFlush == true)
        #expect(response.additionals.map(\.data) == [.a([10, 0, 0, 1])])
    }

    @Test func knownAnswersWithAtLeastHalfTheTTLAreSuppressed() throws {
        let index = try Self.index(count: 2)
        let first = DNSResourceRecord(name: Self.type, data: .ptr(try Self.instance(1)), ttl: 2250)
        let second = DNSResourceRecord(name: Self.type, data: .ptr(try Self.instance(2)), ttl: 2249)
        let plan = MDNSAnswerPlanner.plan(
            Self.query(Self.type, .ptr, known: [first, second]), sourcePort: 5353, index: index)
        // 2250 is half of 4500: suppressed; 2249 is less: answered again.
        #expect(plan.multicast?.answers.map(\.data) == [.ptr(try Self.instance(2))])
        let all = MDNSAnswerPlanner.plan(
            Self.query(
                Self.type, .ptr,
                known: [first, DNSResourceRecord(name: Self.type, data: .ptr(try Self.instance(2)), ttl: 4500)]),
            sourcePort: 5353, index: index)
        #expect(all == .none)
    }

    @Test func quQuestionsAreAnsweredByUnicastOnlyWhenRecentlyMulticast() throws {
        let index = try Self.index(count: 1)
        let query = Self.query(try Self.instance(1), .txt, qu: true)
        let recent = MDNSAnswerPlanner.plan(query, sourcePort: 5353, index: index) { _ in true }
        #expect(recent.multicast == nil)
        #expect(recent.unicast?.answers.map(\.type) == [.txt])
        let stale = MDNSAnswerPlanner.plan(query, sourcePort: 5353, index: index) { _ in false }
        #expect(stale.unicast == nil)
        #expect(stale.multicast?.answers.map(\.type) == [.txt])
    }

    @Test func aQUQuestionFromThisHostIsAnsweredByMulticast() throws {
        // Every socket on this host shares the port; a unicast answer would reach any one of them (§15.1).
        let index = try Self.index(count: 1)
        let query = Self.query(try Self.instance(1), .txt, qu: true)
        let plan = MDNSAnswerPlanner.plan(query, sourcePort: 5353, querierIsLocal: true, index: index) { _ in true }
        #expect(plan.unicast == nil && plan.legacy == nil)
        #expect(plan.multicast?.answers.map(\.type) == [.txt])
    }

    @Test func legacyMeansAnotherPortThanTheRespondersOwn() throws {
        // A responder on a port of its own (tests use one): a querier on that port is a peer, not legacy;
        // one on 5353 or an ephemeral port is a legacy querier.
        let index = try Self.index(count: 1)
        let query = Self.query(Self.type, .ptr)
        let peer = MDNSAnswerPlanner.plan(query, sourcePort: 24109, port: 24109, index: index)
        #expect(peer.legacy == nil && peer.unicast == nil)
        #expect(peer.multicast?.answers.map(\.data) == [.ptr(try Self.instance(1))])
        for other: UInt16 in [5353, 40000] {
            let legacy = MDNSAnswerPlanner.plan(query, sourcePort: other, port: 24109, index: index)
            #expect(legacy.multicast == nil && legacy.legacy != nil)
        }
    }

    @Test func legacyUnicastEchoesTheIDAndCapsTTLs() throws {
        let index = try Self.index(count: 1)
        var query = Self.query(Self.type, .ptr)
        query.id = 0xBEEF
        let plan = MDNSAnswerPlanner.plan(query, sourcePort: 40000, index: index)
        let response = try #require(plan.legacy)
        #expect(plan.multicast == nil && plan.unicast == nil)
        #expect(response.id == 0xBEEF)
        #expect(response.questions == query.questions)
        let records = response.answers + response.additionals
        #expect(records.count == 4)
        #expect(records.allSatisfy { $0.ttl <= 10 && !$0.cacheFlush })
    }

    @Test func responsesAndOtherOpcodesAreNotAnswered() throws {
        let index = try Self.index(count: 1)
        var response = Self.query(Self.type, .ptr)
        response.flags = DNSMessage.Flags.response
        #expect(MDNSAnswerPlanner.plan(response, sourcePort: 5353, index: index) == .none)
        var update = Self.query(Self.type, .ptr)
        update.flags = 5 << 11
        #expect(MDNSAnswerPlanner.plan(update, sourcePort: 5353, index: index) == .none)
        #expect(
            MDNSAnswerPlanner.plan(Self.query(try DNSName("other.local"), .any), sourcePort: 5353, index: index)
                == .none)
    }

    // MARK: - tie-break and conflicts

    @Test func tieBreakFollowsTheRFCExample() throws {
        // RFC 6762 §8.2: 169.254.200.50 is lexicographically later than 169.254.99.200 and wins.
        let name = try DNSName("cheshire.local")
        let ours = [DNSResourceRecord(name: name, data: .a([169, 254, 99, 200]), ttl: 120)]
        let theirs = [DNSResourceRecord(name: name, data: .a([169, 254, 200, 50]), ttl: 120)]
        #expect(MDNSTieBreak.compare(ours: ours, theirs: theirs) == .theyWin)
        #expect(MDNSTieBreak.compare(ours: theirs, theirs: ours) == .weWin)
        #expect(MDNSTieBreak.compare(ours: ours, theirs: ours) == .identical)
        // The cache-flush bit and TTL take no part; a list that is a prefix of the other loses.
        var flushed = ours[0]
        flushed.cacheFlush = true
        flushed.ttl = 4500
        #expect(MDNSTieBreak.compare(ours: [flushed], theirs: ours) == .identical)
        let more = ours + [DNSResourceRecord(name: name, data: .txt([[]]), ttl: 120)]
        #expect(MDNSTieBreak.compare(ours: ours, theirs: more) == .theyWin)
        // Records sort by type before comparing: the A decides before the TXT.
        let mixed = [DNSResourceRecord(name: name, data: .txt([[0xFF]]), ttl: 1)] + theirs
        #expect(MDNSTieBreak.compare(ours: mixed, theirs: more) == .weWin)
    }

    static func srv(_ name: DNSName, port: UInt16) -> DNSResourceRecord {
        DNSResourceRecord(name: name, data: .srv(priority: 0, weight: 0, port: port, target: host), ttl: 120)
    }

    @Test func conflictsWhileProbingAndAfter() throws {
        let name = try Self.instance(1)
        let ours = [Self.srv(name, port: 5540), DNSResourceRecord(name: name, data: .txt([[]]), ttl: 4500)]
        func response(_ records: DNSResourceRecord...) -> DNSMessage { DNSMessage.response(answers: records) }
        // Our own records looping back are no conflict; another port for the name is.
        #expect(MDNSConflict.check(response(ours[0]), name: name, ours: ours, probing: true) == .none)
        #expect(
            MDNSConflict.check(response(Self.srv(name, port: 5541)), name: name, ours: ours, probing: true) == .conflict
        )
        #expect(
            MDNSConflict.check(response(Self.srv(name, port: 5541)), name: name, ours: ours, probing: false)
                == .conflict)
        // A goodbye claims nothing.
        var goodbye = Self.srv(name, port: 5541)
        goodbye.ttl = 0
        #expect(MDNSConflict.check(response(goodbye), name: name, ours: ours, probing: true) == .none)
        // Once established, only a record of a type we hold conflicts (§9); while probing, any (§8.1).
        let a = DNSResourceRecord(name: name, data: .a([10, 0, 0, 9]), ttl: 120)
        #expect(MDNSConflict.check(response(a), name: name, ours: ours, probing: false) == .none)
        #expect(MDNSConflict.check(response(a), name: name, ours: ours, probing: true) == .conflict)
        // Another name is none of our business.
        #expect(
            MDNSConflict.check(response(Self.srv(try Self.instance(2), port: 1)), name: name, ours: ours, probing: true)
                == .none)
    }

    @Test func simultaneousProbesDeferOnlyToALaterProposal() throws {
        let name = try Self.instance(1)
        let ours = [Self.srv(name, port: 5540)]
        func probe(port: UInt16) -> DNSMessage {
            DNSMessage(
                questions: [DNSQuestion(name: name, type: .any, unicastResponse: true)],
                authorities: [Self.srv(name, port: port)])
        }
        #expect(MDNSConflict.check(probe(port: 5541), name: name, ours: ours, probing: true) == .deferToProber)
        #expect(MDNSConflict.check(probe(port: 5539), name: name, ours: ours, probing: true) == .none)
        #expect(MDNSConflict.check(probe(port: 5540), name: name, ours: ours, probing: true) == .none)
        // Once established, a probe is answered (the planner's job), not deferred to.
        #expect(MDNSConflict.check(probe(port: 5541), name: name, ours: ours, probing: false) == .none)
    }

    @Test func largeAnswersTravelWithTheirOwnAdditionals() throws {
        let index = try Self.index(count: 200)
        let plan = MDNSAnswerPlanner.plan(Self.query(Self.type, .ptr), sourcePort: 5353, index: index)
        let response = try #require(plan.multicast)
        let packets = MDNSAnswerPlanner.packets(response, index: index, maxBytes: 1440)
        #expect(packets.count > 1)
        for packet in packets { #expect(packet.serialize().count <= 1440) }
        #expect(packets.flatMap(\.answers) == response.answers)
        // Every instance's SRV and TXT sit in the packet of its PTR; the host's A goes once.
        for packet in packets {
            for answer in packet.answers {
                guard case .ptr(let instance) = answer.data else { continue }
                #expect(Set(packet.additionals.filter { $0.name == instance }.map(\.type)) == [.srv, .txt])
            }
        }
        #expect(packets.flatMap(\.additionals).filter { $0.type == .a }.count == 1)
        // What fits in one packet is left alone.
        let small = MDNSAnswerPlanner.plan(Self.query(try Self.instance(1), .srv), sourcePort: 5353, index: index)
        let one = try #require(small.multicast)
        #expect(MDNSAnswerPlanner.packets(one, index: index, maxBytes: 1440) == [one])
    }
}
