/// What a CASE responder was asked and how each attempt ended (for device statistics).
public struct CASEStatistics: Equatable, Sendable, CustomStringConvertible {
    /// Sigma1 messages received.
    public var requests = 0
    /// Refused: malformed Sigma1, or not on an unsecured session.
    public var invalidRequests = 0
    /// Refused with NO_SHARED_TRUST_ROOTS: the destination matches none of the node's fabrics.
    public var noSharedTrustRoots = 0
    /// Handshakes that failed after Sigma2 or Sigma2_Resume (bad Sigma3, credentials, the peer's
    /// failure report, no acknowledgement).
    public var failed = 0
    /// Sessions established by a full handshake.
    public var established = 0
    /// Sessions established by resumption.
    public var resumed = 0

    public init() {}

    public var description: String {
        "requests \(requests) (refused: invalid \(invalidRequests), no shared trust roots \(noSharedTrustRoots); "
            + "failed \(failed), established \(established), resumed \(resumed))"
    }
}
