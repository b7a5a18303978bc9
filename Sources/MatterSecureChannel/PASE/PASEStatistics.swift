/// What a PASE responder was asked and how each attempt ended (for device statistics).
public struct PASEStatistics: Equatable, Sendable, CustomStringConvertible {
    /// PBKDFParamRequests received.
    public var requests = 0
    /// Refused with FAILURE/INVALID_PARAMETER: no commissioning window open.
    public var refusedWindowClosed = 0
    /// Refused with BUSY: another handshake was in progress.
    public var refusedBusy = 0
    /// Refused: malformed request, or not on an unsecured session.
    public var invalidRequests = 0
    /// Handshakes that failed after PBKDFParamResponse (bad Pake1 or Pake3, wrong passcode, the peer's
    /// failure report, no acknowledgement).
    public var failed = 0
    /// Half-open handshakes given up: silent past the PASE timeout when the next request came.
    public var abandoned = 0
    /// PASE sessions established.
    public var established = 0

    public init() {}

    public var description: String {
        "requests \(requests) (refused: window closed \(refusedWindowClosed), busy \(refusedBusy), "
            + "invalid \(invalidRequests); failed \(failed), abandoned \(abandoned), established \(established))"
    }
}
