/// Why a DNS-SD operation failed. Every case prints as one line a user can act on.
public enum DiscoveryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No Avahi daemon answers on the system D-Bus (or there is no system D-Bus). `detail` is Avahi's
    /// own reason. Callers can go on with direct addresses (`StaticResolver`).
    case daemonUnavailable(detail: String)
    /// The Avahi daemon refused or failed an operation.
    case avahi(operation: String, code: Int32, message: String)
    /// A record to publish breaks a DNS-SD or Matter limit (name length, TXT value limits...).
    case invalidRecord(String)
    /// A received record does not follow the Matter format (missing or malformed key, bad name).
    case malformedRecord(String)
    /// A direct address given by the user cannot be parsed.
    case invalidAddress(String)
    /// Nothing matching was found before the timeout.
    case notFound(String)
    /// A publication was not established on the network in time.
    case timedOut(String)
    /// The publication was withdrawn or never existed.
    case unknownPublication
    /// The embedded mDNS responder could not open or use its sockets (port 5353, multicast membership).
    case network(String)
    /// The discovery service was stopped.
    case stopped
    /// The calling task was cancelled.
    case cancelled

    /// The one-line message for a missing daemon (what the CLI prints before falling back).
    public static let daemonUnavailableMessage =
        "no Avahi daemon reachable (is avahi-daemon running?); use --address HOST:PORT"

    public var description: String {
        switch self {
        case .daemonUnavailable: DiscoveryError.daemonUnavailableMessage
        case .avahi(let operation, let code, let message): "Avahi \(operation) failed: \(message) (error \(code))"
        case .invalidRecord(let why): "invalid DNS-SD record: \(why)"
        case .malformedRecord(let why): "malformed Matter DNS-SD record: \(why)"
        case .invalidAddress(let why): "invalid address: \(why)"
        case .notFound(let what): "not found: \(what)"
        case .timedOut(let what): "timed out: \(what)"
        case .unknownPublication: "unknown DNS-SD publication (already withdrawn?)"
        case .network(let why): "mDNS network error: \(why)"
        case .stopped: "the DNS-SD service has been stopped"
        case .cancelled: "DNS-SD operation cancelled"
        }
    }
}
