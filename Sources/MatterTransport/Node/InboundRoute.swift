import MatterCore

/// Where an inbound message goes, decided from its headers and what the node has (sessions, exchanges,
/// handlers) alone: no socket, no timer, no table changed (the node's receive path carries it out).
/// Spec 4.4 (message reception), 4.12 (MRP acknowledgements), 4.13.1 (unsecured sessions).
enum InboundRoute: Equatable {
    /// Dropped and counted as a duplicate; acknowledged first when the peer asked for it (its
    /// acknowledgement may have been lost).
    case duplicate(acknowledge: Bool)
    /// A standalone acknowledgement: its work (settling a retransmission) is done.
    case acknowledgementOnly
    /// To the exchange it belongs to.
    case deliver
    /// A peer's new exchange, for the handler registered for its protocol.
    case openExchange
    /// No exchange and no handler: dropped and counted; acknowledged when the peer asked for it, so
    /// that it does not retransmit what nobody will answer.
    case unhandled(acknowledge: Bool)

    /// Decides for a decrypted message whose counter the session judged `verdict`.
    static func decide(
        verdict: PeerMessageCounter.Verdict, payload: PayloadHeader, hasExchange: Bool, hasHandler: Bool
    ) -> InboundRoute {
        guard verdict == .new else { return .duplicate(acknowledge: payload.needsAck) }
        if payload.isStandaloneAck { return .acknowledgementOnly }
        if hasExchange { return .deliver }
        if payload.isInitiator && hasHandler { return .openExchange }
        return .unhandled(acknowledge: payload.needsAck)
    }
}

/// What an unsecured message does when no unsecured session with its peer exists yet (spec 4.13.1:
/// only a handshake's initiating message opens one). Decided from the headers alone.
enum UnsecuredAdmission: Equatable {
    /// A handshake's first message: the session opens.
    case open
    /// A standalone acknowledgement that settled a retransmission of ours (a handshake we already
    /// finished): done, not counted.
    case settled
    /// Anything else: dropped and counted against no known session.
    case unknownSession

    /// The peer's ephemeral node ID that keys the unsecured session: the initiator names itself as
    /// source; a responder's reply carries ours as destination. Nil when the header has neither.
    static func ephemeralNodeID(of header: MessageHeader) -> NodeID? {
        if let source = header.source { return source }
        if case .node(let destination) = header.destination { return destination }
        return nil
    }

    /// Decides for a message from a peer with no unsecured session here; `settledRetransmission` is
    /// whether its acknowledgement (if any) settled one of ours.
    static func decide(header: MessageHeader, payload: PayloadHeader, settledRetransmission: Bool)
        -> UnsecuredAdmission
    {
        if header.source != nil && payload.isInitiator && !payload.isStandaloneAck { return .open }
        return settledRetransmission && payload.isStandaloneAck ? .settled : .unknownSession
    }
}

extension PayloadHeader {
    /// A secure-channel standalone acknowledgement (opcode 0x10).
    var isStandaloneAck: Bool {
        protocolID == .secureChannel && opcode == SecureChannelOpcode.standaloneAck
    }
}
