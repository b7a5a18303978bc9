/// Counters of what a node received, sent and dropped, and why. Readable by users (logs, stats).
public struct TransportStatistics: Equatable, Sendable, CustomStringConvertible {
    public var datagramsReceived = 0
    public var datagramsSent = 0
    public var retransmissions = 0
    public var standaloneAcksSent = 0
    /// Headers that did not decode (bad version, truncated...).
    public var droppedUndecodable = 0
    /// Secure messages for a session this node does not have.
    public var droppedUnknownSession = 0
    /// Secure messages whose MIC did not verify.
    public var droppedUnauthenticated = 0
    /// Messages already received (replays and retransmissions); acknowledged, not delivered.
    public var droppedDuplicate = 0
    /// Messages for no open exchange and no protocol handler.
    public var droppedUnhandled = 0
    /// Group, privacy or other features this node does not implement.
    public var droppedUnsupported = 0

    public init() {}

    public var totalDropped: Int {
        droppedUndecodable + droppedUnknownSession + droppedUnauthenticated + droppedDuplicate + droppedUnhandled
            + droppedUnsupported
    }

    public var description: String {
        "received \(datagramsReceived), sent \(datagramsSent), retransmitted \(retransmissions), "
            + "standalone acks \(standaloneAcksSent); dropped: undecodable \(droppedUndecodable), "
            + "unknown session \(droppedUnknownSession), unauthenticated \(droppedUnauthenticated), "
            + "duplicate \(droppedDuplicate), unhandled \(droppedUnhandled), unsupported \(droppedUnsupported)"
    }
}
