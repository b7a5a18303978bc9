/// Counters of what a node received, sent and dropped, and why. Readable by users (logs, stats).
public struct TransportStatistics: Equatable, Sendable, CustomStringConvertible {
    public var datagramsReceived = 0
    public var datagramsSent = 0
    public var retransmissions = 0
    public var standaloneAcksSent = 0
    /// Headers that did not decode (bad version, truncated...).
    public var droppedUndecodable = 0
    /// Secure messages for a session this node does not have; unsecured messages that are neither a
    /// handshake's first message nor part of one in flight.
    public var droppedUnknownSession = 0
    /// Secure messages whose MIC did not verify.
    public var droppedUnauthenticated = 0
    /// Messages already received (replays and retransmissions); acknowledged, not delivered.
    public var droppedDuplicate = 0
    /// Messages for no open exchange and no protocol handler.
    public var droppedUnhandled = 0
    /// Group, privacy or other features this node does not implement.
    public var droppedUnsupported = 0
    /// Messages that opened an exchange which its protocol handler closed without answering: an
    /// interaction-model request on an unsecured session, a Secure Channel message that starts no
    /// handshake (a peer's CloseSession ends here too).
    public var droppedByHandler = 0
    /// Unsecured sessions (handshakes) given up to make room for a new peer (capacity).
    public var unsecuredSessionsEvicted = 0
    /// Reliable messages of closed exchanges no longer retransmitted to make room (capacity).
    public var retransmissionsAbandoned = 0
    /// Reliable messages never acknowledged after every transmission (MRP gave up).
    public var acknowledgementsMissed = 0

    public init() {}

    public var totalDropped: Int {
        droppedUndecodable + droppedUnknownSession + droppedUnauthenticated + droppedDuplicate + droppedUnhandled
            + droppedUnsupported + droppedByHandler
    }

    public var description: String {
        "received \(datagramsReceived), sent \(datagramsSent), retransmitted \(retransmissions), "
            + "standalone acks \(standaloneAcksSent); dropped: undecodable \(droppedUndecodable), "
            + "unknown session \(droppedUnknownSession), unauthenticated \(droppedUnauthenticated), "
            + "duplicate \(droppedDuplicate), unhandled \(droppedUnhandled), unsupported \(droppedUnsupported), "
            + "by handler \(droppedByHandler); evicted: unsecured sessions \(unsecuredSessionsEvicted), "
            + "retransmissions \(retransmissionsAbandoned); unacknowledged \(acknowledgementsMissed)"
    }
}
