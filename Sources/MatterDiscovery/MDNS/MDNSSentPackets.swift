/// The datagrams a responder multicast in the last few seconds, to recognise them when the kernel loops them
/// back: multicast loopback stays on so that the host's other processes (another responder, a controller) hear
/// us, which also hands every packet back to our own socket. Parsing and caching its own records cost a fleet of
/// 10,000 about a tenth of its CPU and most of its cache; its own records are read from its index instead
/// (`MDNSKnownRecords`). An echo is recognised by its bytes, compared whole: a response of another sender with
/// the same bytes carries the same records, which tell the querier nothing its index does not; a query of
/// another querier never has the same bytes, since ours carry the responder's own random ID
/// (`EmbeddedMDNS.queryID`).
struct MDNSSentPackets {
    /// How long a sent datagram is remembered: its echo comes back at once, or after the datagrams queued
    /// before it when the queue is busy; one that comes later is read like any other.
    static let lifetime: Duration = .seconds(3)
    /// At most this many remembered (the oldest is forgotten first): a few thousand packets, which is what a
    /// fleet of 10,000 sends while it probes and announces.
    static let capacity = 8192

    private var order: [(bytes: [UInt8], sent: ContinuousClock.Instant)] = []
    private var head = 0
    /// Each datagram remembered: how many of its sendings are, and the last one's time.
    private var live: [[UInt8]: (copies: Int, last: ContinuousClock.Instant)] = [:]

    /// Datagrams remembered now.
    var count: Int { order.count - head }

    mutating func insert(_ bytes: [UInt8], now: ContinuousClock.Instant) {
        forget(before: now - MDNSSentPackets.lifetime)
        if count >= MDNSSentPackets.capacity { forgetOldest() }
        order.append((bytes, now))
        let copies = live[bytes]?.copies ?? 0
        live[bytes] = (copies + 1, now)
    }

    /// Whether `bytes` is a datagram sent within `lifetime`.
    func contains(_ bytes: [UInt8], now: ContinuousClock.Instant) -> Bool {
        guard let last = live[bytes]?.last else { return false }
        return last >= now - MDNSSentPackets.lifetime
    }

    private mutating func forget(before cutoff: ContinuousClock.Instant) {
        while head < order.count, order[head].sent < cutoff { forgetOldest() }
    }

    private mutating func forgetOldest() {
        guard head < order.count else { return }
        let bytes = order[head].bytes
        order[head].bytes = []
        head += 1
        if let (copies, last) = live[bytes], copies > 1 { live[bytes] = (copies - 1, last) } else { live[bytes] = nil }
        // Drop the forgotten prefix once it is most of the array, so memory follows what is remembered.
        if head > 1024, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}
