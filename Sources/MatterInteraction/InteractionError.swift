package import MatterTransport

/// Why an interaction failed: a malformed message, a status from the peer, or the transport.
package enum InteractionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Bytes that should be `message` could not be decoded.
    case malformed(message: String, reason: String)
    /// The peer answered with a StatusResponse carrying this (non-success) status.
    case status(IMStatus)
    /// The peer sent opcode `opcode` where `expected` was due.
    case unexpectedMessage(opcode: UInt8, expected: String)
    /// The exchange failed underneath (no acknowledgement, timeout, session gone).
    case transport(TransportError)
    /// The request cannot be sent as asked (e.g. a wildcard path in a write).
    case invalidRequest(String)
    /// The subscription was cancelled, lost its session, or stopped receiving reports.
    case subscriptionEnded(String)

    package var description: String {
        switch self {
        case .malformed(let message, let reason): "malformed \(message): \(reason)"
        case .status(let status): "peer answered \(status)"
        case .unexpectedMessage(let opcode, let expected):
            "unexpected interaction-model message 0x\(String(opcode, radix: 16)) (expected \(expected))"
        case .transport(let error): error.description
        case .invalidRequest(let reason): "invalid request: \(reason)"
        case .subscriptionEnded(let reason): "subscription ended: \(reason)"
        }
    }

    /// Maps an error thrown by an exchange to this type.
    static func from(_ error: any Error) -> InteractionError {
        if let error = error as? InteractionError { return error }
        if let error = error as? TransportError { return .transport(error) }
        return .invalidRequest(String(describing: error))
    }
}
