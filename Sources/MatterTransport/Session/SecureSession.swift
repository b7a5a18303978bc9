package import MatterCore

/// What kind of secure session, and the identities it binds.
package enum SecureSessionKind: Equatable, Sendable {
    /// Established with the setup passcode; nodes have no operational IDs (nonce node ID 0).
    case pase
    /// Established with operational certificates.
    case `case`(fabricIndex: UInt8, localNodeID: NodeID, peerNodeID: NodeID, peerCATs: [UInt32])
}

/// Everything needed to open a secure session once a handshake derived its keys.
package struct SecureSessionParameters: Sendable {
    package var kind: SecureSessionKind
    /// The session ID this node chose (peers put it in messages they send us).
    package var localSessionID: UInt16
    /// The session ID the peer chose (we put it in messages we send).
    package var peerSessionID: UInt16
    package var keys: SessionKeys
    package var peerAddress: UDPAddress
    package var peerMRP: MRPParameters
    /// True when this node initiated the handshake.
    package var isInitiator: Bool

    package init(
        kind: SecureSessionKind, localSessionID: UInt16, peerSessionID: UInt16, keys: SessionKeys,
        peerAddress: UDPAddress, peerMRP: MRPParameters, isInitiator: Bool
    ) {
        self.kind = kind
        self.localSessionID = localSessionID
        self.peerSessionID = peerSessionID
        self.keys = keys
        self.peerAddress = peerAddress
        self.peerMRP = peerMRP
        self.isInitiator = isInitiator
    }
}

/// A secure unicast session's live state: keys, counters in both directions, where the peer is.
struct SecureSession: Sendable {
    var parameters: SecureSessionParameters
    /// Next counter this node sends with; random start in [1, 2^28], never wraps.
    var nextCounter: UInt32
    var peerCounter = PeerMessageCounter(policy: .secureUnicast)
    /// When the peer was last heard (clock milliseconds), for MRP's active/idle choice and eviction.
    var lastReceived: UInt64
    var lastActivity: UInt64

    init(_ parameters: SecureSessionParameters, initialCounter: UInt32, now: UInt64) {
        self.parameters = parameters
        nextCounter = initialCounter
        lastReceived = now
        lastActivity = now
    }

    /// The node ID that goes into the nonce of what the peer sends (0 for PASE).
    var peerNonceNodeID: UInt64 {
        if case .case(_, _, let peer, _) = parameters.kind { return peer.rawValue }
        return 0
    }

    /// The node ID that goes into the nonce of what this node sends (0 for PASE).
    var localNonceNodeID: UInt64 {
        if case .case(_, let local, _, _) = parameters.kind { return local.rawValue }
        return 0
    }
}
