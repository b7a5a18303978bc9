/// RFC 6762 §7.2: a query whose known answers do not fit one packet comes as a packet with the TC bit set,
/// followed by packets of more known answers from the same querier. The responder waits 400-500 ms for them
/// and answers the whole, so that it does not send again what the querier already holds. A querier with a
/// thousand instances in its cache sends its query over a dozen packets; answering the first alone would
/// multicast hundreds of records it knows, a burst that can overflow the receiving daemon's socket, taking
/// the few records it lacks with it.
///
/// Pure bookkeeping (no sockets, no clock): the responder asks ``accept(_:from:)`` what to do with a query
/// and ``take(_:)`` when the wait is over.
struct MDNSKnownAnswerCollector {
    /// Who sent the query: address, port and the interface it came on.
    struct Querier: Hashable {
        let address: [UInt8]
        let port: UInt16
        let interfaceIndex: UInt32
    }

    /// What to do with a query.
    enum Outcome: Equatable {
        /// Answer it now (no TC bit, and nothing held for its querier).
        case answer(DNSMessage)
        /// The first packet of a truncated query: wait 400-500 ms, then answer what ``take(_:)`` returns.
        case wait
        /// Merged into the query held for its querier.
        case merged
    }

    /// The most queriers held at once (beyond, a truncated query is answered as it is), and the most known
    /// answers held for one (beyond, further ones are dropped: the answer may repeat what they held).
    static let maxQueriers = 64
    static let maxKnownAnswers = 4096

    private(set) var held: [Querier: DNSMessage] = [:]

    mutating func accept(_ message: DNSMessage, from querier: Querier) -> Outcome {
        if var query = held[querier] {
            query.questions += message.questions.filter { !query.questions.contains($0) }
            query.answers += message.answers.prefix(max(0, Self.maxKnownAnswers - query.answers.count))
            held[querier] = query
            return .merged
        }
        guard message.isTruncated, held.count < Self.maxQueriers else { return .answer(message) }
        var query = message
        query.answers = Array(query.answers.prefix(Self.maxKnownAnswers))
        held[querier] = query
        return .wait
    }

    /// The query held for `querier`, with every known answer that came for it; nil when none is held.
    mutating func take(_ querier: Querier) -> DNSMessage? { held.removeValue(forKey: querier) }
}
