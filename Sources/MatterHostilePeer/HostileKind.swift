/// The kinds of datagram the hostile peer sends (`--mix` names them).
enum HostileKind: String, CaseIterable, Sendable {
    /// Random bytes of random length.
    case random
    /// A valid header of a secure unicast session with a random (unknown) session ID, then garbage.
    case secured
    /// A valid unsecured header (session 0, a fresh source node ID), then a garbage or half-valid payload.
    case unsecured
    /// A captured handshake message with bit flips, truncation or extension, re-addressed.
    case mutated
    /// Bursts of one valid unsecured message sent again and again with the same counter.
    case duplicate
    /// A valid PBKDFParamRequest (the SDK's captured one, or one of ours) replayed verbatim.
    case replay
    /// Half-open PASE: a PBKDFParamRequest from one of many source ports that is never continued, or
    /// a Pake1 with a garbage point that follows it.
    case halfOpen = "half-open"
    /// A well-formed Sigma1 for a destination no fabric matches (half-open CASE).
    case sigma1

    /// Default share of each kind in the mix, percent.
    var defaultWeight: Int {
        switch self {
        case .random: 20
        case .secured: 25
        case .unsecured: 20
        case .mutated: 15
        case .duplicate: 10
        case .replay: 4
        case .halfOpen: 4
        case .sigma1: 2
        }
    }
}

/// What a device (commissioned, its commissioning window closed) is expected to do with a datagram,
/// named after its counters (`matter-emu device --stats-interval`).
enum ExpectedOutcome: String, CaseIterable, Sendable {
    case droppedUndecodable
    case droppedUnsupported
    case droppedUnknownSession
    case droppedDuplicate
    case droppedUnhandled
    case droppedByHandler
    /// A PBKDFParamRequest refused because no commissioning window is open (answered with a StatusReport).
    case paseRefusedWindowClosed
    /// A Sigma1 refused: malformed, or for no fabric of the device (answered with a StatusReport).
    case caseRefused
    /// Depends on state the peer cannot see (a session ID that happens to exist, for instance).
    case unpredictable
}
