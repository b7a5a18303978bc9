/// Reliable messages that wait for an acknowledgement, one per exchange (spec 4.12): when each is
/// due again, and how many times it was sent. Pure bookkeeping; the node resends what `due(at:)`
/// returns and fails the exchange whose message ran out of transmissions.
struct RetransmissionTable<Key: Hashable & Sendable>: Sendable {
    struct Entry: Sendable {
        /// The exact bytes sent: retransmissions repeat them (same counter, same MIC).
        let datagram: [UInt8]
        let destination: UDPAddress
        let messageCounter: UInt32
        var transmissions: Int
        var nextDue: UInt64
    }

    enum Action: Sendable {
        case resend(Key, [UInt8], UDPAddress)
        case giveUp(Key)
    }

    private(set) var entries: [Key: Entry] = [:] {
        didSet { cachedDeadline = nil }
    }
    /// `nextDeadline` until the entries change (nil: not computed). The node asks after every datagram.
    private var cachedDeadline: UInt64??

    var isEmpty: Bool { entries.isEmpty }

    /// The earliest time something is due, if anything waits.
    var nextDeadline: UInt64? {
        mutating get {
            if let cachedDeadline { return cachedDeadline }
            var earliest: UInt64?
            for entry in entries.values where earliest.map({ entry.nextDue < $0 }) ?? true { earliest = entry.nextDue }
            cachedDeadline = .some(earliest)
            return earliest
        }
    }

    /// Records a first transmission made at `now`, due again after `wait`.
    mutating func add(
        _ key: Key, datagram: [UInt8], destination: UDPAddress, counter: UInt32, now: UInt64, wait: UInt64
    ) {
        entries[key] = Entry(
            datagram: datagram, destination: destination, messageCounter: counter,
            transmissions: 1, nextDue: now + wait)
    }

    /// Removes the entry of `key` if the acknowledged counter is its message's. Returns true if so.
    @discardableResult
    mutating func acknowledge(_ key: Key, counter: UInt32) -> Bool {
        guard entries[key]?.messageCounter == counter else { return false }
        entries[key] = nil
        return true
    }

    /// Removes the entry of `key` (exchange closed).
    mutating func remove(_ key: Key) { entries[key] = nil }

    /// The messages sent to `address` (compared by IP and port; the scope may differ).
    func keys(destinedTo address: UDPAddress) -> [Key] {
        entries.filter { $0.value.destination.ip == address.ip && $0.value.destination.port == address.port }.map(\.key)
    }

    /// What is due at `now`: resends and give-ups after the last transmission's wait ran out. A
    /// resent entry counts one more transmission; the caller sets its next due time with `reschedule`.
    mutating func due(at now: UInt64) -> [Action] {
        var actions: [Action] = []
        for (key, entry) in entries where entry.nextDue <= now {
            if entry.transmissions >= MRPBackoff.maxTransmissions {
                entries[key] = nil
                actions.append(.giveUp(key))
            } else {
                entries[key]?.transmissions += 1
                entries[key]?.nextDue = UInt64.max
                actions.append(.resend(key, entry.datagram, entry.destination))
            }
        }
        return actions
    }

    /// Sets when `key`'s message is due again.
    mutating func reschedule(_ key: Key, nextDue: UInt64) { entries[key]?.nextDue = nextDue }

    /// Transmissions made so far of `key`'s message.
    func transmissions(of key: Key) -> Int { entries[key]?.transmissions ?? 0 }
}
