import Foundation

/// The device's counters during the attack against what the hostile peer sent and predicted, and the
/// bounds its tables must keep.
struct CounterReport {
    struct Line {
        let name: String
        let good: Bool
        let text: String
    }

    private(set) var lines: [Line] = []
    private(set) var figures: [String] = []

    static let bounds: [(String, Int64)] = [
        ("unsecuredSessions", 64), ("closingExchanges", 64), ("pendingRetransmissions", 64 + 16), ("openExchanges", 16),
        ("handshakesInProgress", 2), ("secureSessions", 64),
    ]

    init(before: [String: JSONScalar], after: [String: JSONScalar], summary: [String: Any], losses: Int64, toggles: Int)
    {
        var delta: [String: Int64] = [:]
        for (key, value) in after where key != "uptimeSeconds" {
            if let now = value.int { delta[key] = now - (before[key]?.int ?? 0) }
        }
        delta["caseRefused"] = (delta["caseInvalid"] ?? 0) + (delta["caseNoSharedTrustRoots"] ?? 0)
        let sent = Int64((summary["sent"] as? Int) ?? 0)
        // The controller's own traffic also lands in some counters (a duplicate retransmission now and then).
        let slackUp = Int64(10 * toggles + 20)
        let received = delta["received"] ?? 0
        lines.append(
            Line(
                name: "received", good: received >= sent - losses,
                text:
                    "device received \(received) (hostile sent \(sent), kernel dropped \(losses), controller traffic on top)"
            ))
        let expected = (summary["expected"] as? [String: Any] ?? [:]).sorted { $0.key < $1.key }
        for (outcome, value) in expected where outcome != "unpredictable" {
            let predicted = Int64((value as? Int) ?? 0)
            let got = delta[outcome]
            // A random secure session ID may be one the device has: unauthenticated instead of unknown session.
            let slackDown = losses + (outcome == "droppedUnknownSession" ? (delta["droppedUnauthenticated"] ?? 0) : 0)
            let good = got.map { predicted - slackDown <= $0 && $0 <= predicted + slackUp } ?? false
            lines.append(
                Line(
                    name: outcome, good: good,
                    text: "device \(got.map(String.init) ?? "no such counter"), predicted \(predicted)"))
        }
        for (name, limit) in Self.bounds {
            let value = after[name]?.int
            lines.append(
                Line(
                    name: name, good: value.map { $0 <= limit } ?? false,
                    text: "\(value.map(String.init) ?? "missing") at the end (bound \(limit))"))
        }
        let changed = delta.filter { $0.value != 0 && $0.key != "rssKB" && $0.key != "peakRssKB" }.sorted {
            $0.key < $1.key
        }
        figures.append(
            "device counters during the attack (deltas): "
                + changed.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        figures.append(
            "device state at the end: "
                + Self.bounds.map { "\($0.0) \(after[$0.0]?.int.map(String.init) ?? "-")" }.joined(separator: ", "))
    }
}
