import MatterCore
import MatterDataModel
import MatterTransport

/// Closes sessions once the response of the command being handled has gone out (and had time to be
/// acknowledged): closing them inside the handler would lose that response. On the node's scheduler.
final class SessionCloser {
    /// How long after the request sessions close.
    static let delayMilliseconds: UInt64 = 500

    let sessions: NodeSessions
    let clock: any MatterClock
    /// Set when the data model exists.
    var timer: DataModelTimer?
    private var due: [(at: UInt64, sessions: [SessionID])] = []

    init(sessions: NodeSessions, clock: any MatterClock) {
        self.sessions = sessions
        self.clock = clock
    }

    /// Closes `closing` in ``delayMilliseconds``.
    func closeSoon(_ closing: [SessionID]) {
        guard !closing.isEmpty else { return }
        due.append((clock.nowMilliseconds() + Self.delayMilliseconds, closing))
        rearm()
    }

    /// The timer fired: closes what is due.
    func timerFired() {
        let now = clock.nowMilliseconds()
        let ready = due.filter { $0.at <= now }
        due.removeAll { $0.at <= now }
        for entry in ready {
            for session in entry.sessions { sessions.remove(session) }
        }
        rearm()
    }

    private func rearm() {
        guard let timer, let next = due.map(\.at).min() else { return }
        let now = clock.nowMilliseconds()
        timer.start(after: next > now ? next - now : 0)
    }
}
