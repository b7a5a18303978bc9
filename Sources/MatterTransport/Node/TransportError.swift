/// Why the transport could not deliver or receive a message on an exchange.
package enum TransportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The peer never acknowledged after every MRP transmission.
    case noAcknowledgement(transmissions: Int)
    /// No response arrived within the exchange's response timeout.
    case responseTimeout(milliseconds: UInt64)
    /// The session is gone (closed, evicted, or never existed).
    case sessionNotFound(SessionID)
    /// The exchange was closed while a message was awaited or sent.
    case exchangeClosed
    /// A reliable message is still unacknowledged on this exchange (one at a time).
    case messageOutstanding
    /// The session's send counter reached its end; a new session is needed.
    case counterExhausted
    /// The socket refused the datagram.
    case socket(SocketError)
    /// Encryption failed (should not happen with valid keys).
    case encryption(String)
    /// The node was stopped.
    case stopped
    /// The network reported the peer's port closed (ICMP port unreachable): nothing listens there.
    case portUnreachable(UDPAddress)

    package var description: String {
        switch self {
        case .noAcknowledgement(let n): "peer did not acknowledge after \(n) transmissions"
        case .responseTimeout(let ms): "no response within \(ms) ms"
        case .sessionNotFound(let id): "session \(id) not found"
        case .exchangeClosed: "exchange closed"
        case .messageOutstanding: "a reliable message is still unacknowledged on this exchange"
        case .counterExhausted: "message counter exhausted; establish a new session"
        case .socket(let e): e.description
        case .encryption(let detail): "encryption failed: \(detail)"
        case .stopped: "transport stopped"
        case .portUnreachable(let peer): "the port is closed: nothing listens at \(peer) (ICMP port unreachable)"
        }
    }
}
