import MatterCore
import MatterTransport

extension InteractionServer {
    /// Runs what is due now: subscription reports and keep-alives, expired waits. Dispatch timers call
    /// it; tests with a `ManualClock` call it after moving the clock.
    public func serviceTimers() async {
        guard let node else { return }
        await runTimers(node)
    }

    private func runTimers(_ node: isolated TransportNode) {
        timer.fired()
        let now = self.now
        for conversation in Array(pending.values) {
            if let deadline = conversation.deadline(), deadline <= now {
                pending[ObjectIdentifier(conversation.exchange)] = nil
                conversation.expire()
            }
        }
        for subscription in subscriptions.values.sorted(by: { $0.id < $1.id }) {
            guard subscriptions[subscription.id] === subscription, let due = subscription.nextDue, due <= now else {
                continue
            }
            sendReport(subscription)
        }
        rescheduleTimer()
    }

    /// The earliest time anything is due.
    var nextDeadline: UInt64? {
        var deadline: UInt64?
        for conversation in pending.values {
            if let candidate = conversation.deadline() { deadline = min(deadline ?? candidate, candidate) }
        }
        for subscription in subscriptions.values {
            if let candidate = subscription.nextDue { deadline = min(deadline ?? candidate, candidate) }
        }
        return deadline
    }

    func rescheduleTimer() {
        guard configuration.usesDispatchTimers else { return }
        timer.schedule(at: nextDeadline, now: now)
    }
}
