import MatterTransport

/// What the root node needs of the node it runs on, without a reference to it: the view of its secure
/// sessions (the attestation challenge of the session a request came on, a fabric's CASE sessions) and
/// closing them. Called on the node's queue.
struct NodeSessions {
    /// The parameters of a secure session, if it exists.
    var parameters: (SessionID) -> SecureSessionParameters?
    /// Every secure session's parameters.
    var all: () -> [SecureSessionParameters]
    /// Removes a secure session (its exchanges fail, observers are told).
    var remove: (SessionID) -> Void

    /// The view of `node`'s sessions (it holds the node weakly: a stopped node has none).
    static func of(_ node: TransportNode) -> NodeSessions {
        NodeSessions(
            parameters: { [weak node] session in node?.assumeIsolated { $0.secureSession(session) } },
            all: { [weak node] in node?.assumeIsolated { $0.secureSessionList } ?? [] },
            remove: { [weak node] session in node?.assumeIsolated { $0.removeSecureSession(session) } })
    }

    /// The attestation challenge of `session` (signatures over attestation and CSR elements).
    func attestationChallenge(_ session: SessionID) -> [UInt8]? { parameters(session)?.keys.attestationChallenge }

    /// The CASE sessions of a fabric.
    func sessions(ofFabric fabric: UInt8) -> [SessionID] {
        all().compactMap { parameters in
            if case .case(let index, _, _, _) = parameters.kind, index == fabric {
                return .secure(localSessionID: parameters.localSessionID)
            }
            return nil
        }
    }
}
