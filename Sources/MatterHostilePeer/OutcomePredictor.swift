import MatterCore
import MatterTransport

/// Predicts what a device does with a datagram from a peer it has no state for, following the inbound
/// path of `TransportNode` (header, session, payload header, exchange, protocol handler) and the
/// handlers of a commissioned device whose commissioning window is closed.
enum OutcomePredictor {
    static func predict(_ bytes: [UInt8]) -> ExpectedOutcome {
        var reader = ByteReader(bytes)
        guard let header = try? MessageHeader(from: &reader) else { return .droppedUndecodable }
        guard !header.privacy, header.sessionType == .unicast, !header.control else { return .droppedUnsupported }
        // A secure session ID the device does not have (it has a handful of the 65535).
        guard header.isUnsecured else { return .droppedUnknownSession }
        guard header.source != nil else {
            if case .node = header.destination {
                return predictUnsecuredReply(&reader)
            }
            return .droppedUndecodable
        }
        guard let payloadHeader = try? PayloadHeader(from: &reader) else { return .droppedUndecodable }
        let isAck =
            payloadHeader.protocolID == .secureChannel
            && payloadHeader.opcode == SecureChannelOpcode.standaloneAck
        guard payloadHeader.isInitiator, !isAck else { return .droppedUnknownSession }
        switch payloadHeader.protocolID {
        case .interactionModel:
            return .droppedByHandler  // the interaction model runs on secure sessions only
        case .secureChannel:
            switch payloadHeader.opcode {
            case SecureChannelOpcode.pbkdfParamRequest: return .paseRefusedWindowClosed
            case SecureChannelOpcode.sigma1: return .caseRefused
            default: return .droppedByHandler  // starts no handshake
            }
        default:
            return .droppedUnhandled
        }
    }

    /// An unsecured message without source that names a destination node: a responder's reply to a
    /// handshake the device never started.
    private static func predictUnsecuredReply(_ reader: inout ByteReader) -> ExpectedOutcome {
        guard (try? PayloadHeader(from: &reader)) != nil else { return .droppedUndecodable }
        return .droppedUnknownSession
    }
}
