import Testing

@testable import MatterDiscovery

/// RFC 6762 §7.2: a truncated query waits for the rest of its known answers, and the whole is answered.
@Suite("mDNS truncated queries (known answers over several packets)")
struct MDNSKnownAnswerCollectorTests {
    typealias Logic = MDNSResponderLogicTests
    static let querier = MDNSKnownAnswerCollector.Querier(address: [10, 0, 0, 2], port: 5353, interfaceIndex: 2)

    static func known(_ numbers: ClosedRange<Int>) throws -> [DNSResourceRecord] {
        try numbers.map { DNSResourceRecord(name: Logic.type, data: .ptr(try Logic.instance($0)), ttl: 4500) }
    }

    @Test func aQueryThatFitsIsAnsweredAtOnce() throws {
        var collector = MDNSKnownAnswerCollector()
        let query = Logic.query(Logic.type, .ptr, known: try Self.known(1...3))
        #expect(collector.accept(query, from: Self.querier) == .answer(query))
        #expect(collector.held.isEmpty)
    }

    @Test func aTruncatedQueryIsAnsweredWithAllItsKnownAnswers() throws {
        let index = try Logic.index(count: 30)
        var collector = MDNSKnownAnswerCollector()
        var first = Logic.query(Logic.type, .ptr, known: try Self.known(1...10))
        first.flags |= DNSMessage.Flags.truncated
        // Answered alone, the first packet would bring back 20 PTRs the querier holds.
        #expect(MDNSAnswerPlanner.plan(first, sourcePort: 5353, index: index).multicast?.answers.count == 20)
        #expect(collector.accept(first, from: Self.querier) == .wait)
        var middle = DNSMessage(questions: [], answers: try Self.known(11...25))
        middle.flags |= DNSMessage.Flags.truncated
        #expect(collector.accept(middle, from: Self.querier) == .merged)
        let last = DNSMessage(questions: [], answers: try Self.known(26...29))
        #expect(collector.accept(last, from: Self.querier) == .merged)
        // Another querier's query is its own.
        let other = MDNSKnownAnswerCollector.Querier(address: [10, 0, 0, 3], port: 5353, interfaceIndex: 2)
        #expect(collector.accept(Logic.query(Logic.type, .ptr), from: other) == .answer(Logic.query(Logic.type, .ptr)))
        let taken = collector.take(Self.querier)
        let whole = try #require(taken)
        #expect(whole.answers.count == 29 && whole.questions.count == 1)
        // Only the one it lacks goes out.
        #expect(
            MDNSAnswerPlanner.plan(whole, sourcePort: 5353, index: index).multicast?.answers.map(\.data)
                == [.ptr(try Logic.instance(30))])
        #expect(collector.take(Self.querier) == nil)
    }

    @Test func heldQueriersAndTheirKnownAnswersAreBounded() throws {
        var collector = MDNSKnownAnswerCollector()
        var truncated = Logic.query(Logic.type, .ptr)
        truncated.flags |= DNSMessage.Flags.truncated
        for number in 0..<MDNSKnownAnswerCollector.maxQueriers {
            let querier = MDNSKnownAnswerCollector.Querier(
                address: [10, 0, UInt8(number / 256), UInt8(number % 256)], port: 5353, interfaceIndex: 2)
            #expect(collector.accept(truncated, from: querier) == .wait)
        }
        // One more querier: answered as it is, not held.
        let another = MDNSKnownAnswerCollector.Querier(address: [192, 168, 1, 1], port: 5353, interfaceIndex: 2)
        #expect(collector.accept(truncated, from: another) == .answer(truncated))
        let first = MDNSKnownAnswerCollector.Querier(address: [10, 0, 0, 0], port: 5353, interfaceIndex: 2)
        let flood = DNSMessage(
            questions: [],
            answers: Array(
                repeating: DNSResourceRecord(name: Logic.type, data: .ptr(try Logic.instance(1)), ttl: 4500),
                count: MDNSKnownAnswerCollector.maxKnownAnswers + 10))
        #expect(collector.accept(flood, from: first) == .merged)
        #expect(collector.take(first)?.answers.count == MDNSKnownAnswerCollector.maxKnownAnswers)
    }
}
