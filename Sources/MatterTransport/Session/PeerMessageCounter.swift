/// Duplicate detection for the counters a peer sends (spec 4.6.5): the highest counter seen plus a
/// bitmap of the 32 counters below it. `verdict(for:)` only looks; `commit(_:)` records a counter and
/// is called once the message authenticated, so a forged counter cannot move the window.
struct PeerMessageCounter: Sendable {
    /// How counters of this peer may move.
    enum Policy: Sendable {
        /// Secure unicast: counters only grow, no wrap; the window starts synchronised at 0.
        case secureUnicast
        /// Unsecured session: the first message synchronises; counters wrap modulo 2^32; a counter from
        /// before the window is accepted as new (the peer restarted).
        case unsecured
    }

    enum Verdict: Equatable, Sendable {
        case new
        case duplicate
    }

    static let windowSize: UInt32 = 32

    let policy: Policy
    private(set) var maxCounter: UInt32 = 0
    /// Bit i set: counter `maxCounter - 1 - i` was received.
    private(set) var window: UInt32 = 0
    private var synchronized: Bool

    init(policy: Policy) {
        self.policy = policy
        synchronized = policy == .secureUnicast
    }

    func verdict(for counter: UInt32) -> Verdict {
        guard synchronized else { return .new }
        switch policy {
        case .secureUnicast:
            if counter > maxCounter { return .new }
            if counter == maxCounter { return .duplicate }
            let behind = maxCounter - counter
            guard behind <= Self.windowSize else { return .duplicate }
            return window & (1 << (behind - 1)) == 0 ? .new : .duplicate
        case .unsecured:
            let ahead = counter &- maxCounter
            if ahead == 0 { return .duplicate }
            if ahead < 1 << 31 { return .new }
            let behind = maxCounter &- counter
            guard behind <= Self.windowSize else { return .new }  // before the window: peer restarted
            return window & (1 << (behind - 1)) == 0 ? .new : .duplicate
        }
    }

    /// Records `counter` as received. Call only for counters whose verdict was `.new`.
    mutating func commit(_ counter: UInt32) {
        guard synchronized else {
            synchronized = true
            maxCounter = counter
            window = 0
            return
        }
        let ahead: UInt32 =
            policy == .secureUnicast
            ? (counter > maxCounter ? counter - maxCounter : 0)
            : (counter &- maxCounter < 1 << 31 ? counter &- maxCounter : 0)
        if ahead > 0 {
            // Slide the window; the old maximum becomes `ahead` behind. Smart shifts give 0 past 32.
            window = (window << ahead) | (UInt32(1) << (ahead - 1))
            maxCounter = counter
            return
        }
        let behind = maxCounter &- counter
        if behind >= 1, behind <= Self.windowSize {
            window |= 1 << (behind - 1)
        } else if policy == .unsecured {
            // Accepted from before the window: start over from this counter.
            maxCounter = counter
            window = 0
        }
    }
}
