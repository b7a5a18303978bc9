/// One deadline on a node's ``NodeScheduler``: armed, it runs its action once on the node's queue when
/// the deadline falls due. Its owner keeps it (the scheduler holds it weakly). Confined to the node's
/// queue, like its scheduler.
package final class NodeTimer {
    /// The scheduler it runs on (held strongly: the scheduler holds its timers weakly).
    package let scheduler: NodeScheduler
    let action: () -> Void
    /// Tags the timer for ``NodeScheduler/cancelTimers(ownedBy:)``.
    var owner: ObjectIdentifier?
    /// True while the scheduler lists it.
    var isRegistered = false
    /// The time it fires at (scheduler clock, ms); nil when not armed.
    package internal(set) var deadline: UInt64?

    init(scheduler: NodeScheduler, action: @escaping () -> Void) {
        self.scheduler = scheduler
        self.action = action
    }

    /// True while armed.
    package var isRunning: Bool { deadline != nil }

    /// Tags the timer with `owner` so that ``NodeScheduler/cancelTimers(ownedBy:)`` disarms it.
    package func setOwner(_ owner: AnyObject) { self.owner = ObjectIdentifier(owner) }

    /// Arms the timer for `deadline` (clock ms; one in the past fires at the next servicing), replacing
    /// an earlier arming; nil disarms it.
    package func schedule(at deadline: UInt64?) {
        guard deadline != self.deadline else { return }
        self.deadline = deadline
        if deadline != nil { scheduler.armed(self) }
    }

    /// Arms the timer to fire `milliseconds` (at least 1) after the scheduler's ``NodeScheduler/now``.
    package func start(after milliseconds: UInt64) { schedule(at: scheduler.now + max(milliseconds, 1)) }

    /// Disarms the timer.
    package func cancel() { deadline = nil }
}
