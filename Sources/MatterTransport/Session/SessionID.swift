package import MatterCore

/// Identifies a session within one node.
package enum SessionID: Hashable, Sendable, CustomStringConvertible {
    /// The unsecured session with a peer, keyed by its address and the handshake initiator's
    /// ephemeral node ID.
    case unsecured(peer: UDPAddress, ephemeralNodeID: NodeID)
    /// A secure unicast session, by the session ID this node allocated.
    case secure(localSessionID: UInt16)

    /// True for the unsecured session of a handshake.
    package var isUnsecured: Bool {
        if case .unsecured = self { return true }
        return false
    }

    package var description: String {
        switch self {
        case .unsecured(let peer, let node): "unsecured(\(peer), \(node))"
        case .secure(let id): "secure(\(id))"
        }
    }
}
