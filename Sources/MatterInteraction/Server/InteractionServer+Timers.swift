import MatterCore
import MatterTransport

extension InteractionServer {
    /// Runs every timer of the node due now (the node's ``MatterTransport/TransportNode/serviceTimers()``),
    /// this server's among them: subscription reports and keep-alives, expired waits. Tests with a
    /// `ManualClock` call it after moving the clock.
    package func serviceTimers() async {
        guard let node = try? context.requireNode() else { return }
        await node.serviceTimers()
    }

    /// The timer's action, on the node's queue.
    func runTimers() {
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

    func rescheduleTimer() { timer.schedule(at: nextDeadline) }
}
