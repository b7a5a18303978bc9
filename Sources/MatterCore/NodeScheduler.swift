package import Dispatch

/// The one timer of a node: every protocol running on the node (the transport's retransmissions,
/// acknowledgements and response timeouts, the interaction engine's reports and waits, the data
/// model's cluster and root-node timers) arms a ``NodeTimer`` here, and one `DispatchSourceTimer` on
/// the node's queue wakes at the earliest deadline.
///
/// Servicing runs the due timers in deadline order (ties in the order the timers were first armed).
/// While a timer's action runs, ``now`` is the deadline it fired at, not the clock: a periodic timer
/// restarted from its own action keeps an exact cadence however late it is serviced (after a
/// `ManualClock` moves by one second, a 100 ms timer runs ten times).
///
/// Without a queue the scheduler is manual: no Dispatch timer exists, a test moves a `ManualClock`
/// and calls ``service()``. Everything but `init` must be called on the node's queue.
package final class NodeScheduler: @unchecked Sendable {
    // @unchecked: created off the queue and handed to the node's clients across the actor boundary;
    // every mutable property is touched only on the node's queue (the Dispatch handler runs there too).

    /// One leeway for every timer of the node.
    static let leeway = DispatchTimeInterval.milliseconds(1)

    private struct Entry {
        weak var timer: NodeTimer?
    }

    /// The clock deadlines are measured on (milliseconds).
    package let clock: any MatterClock
    private let queue: DispatchQueue?
    /// Timers armed since the last servicing, in the order they were first armed (held weakly: a timer
    /// dies with its owner).
    private var entries: [Entry] = []
    private var source: (any DispatchSourceTimer)?
    /// The deadline the Dispatch timer is set for; nil when it is idle.
    private var armed: UInt64?
    /// During servicing: the deadline of the timer whose action runs.
    private var logicalNow: UInt64?
    private var servicing = false
    private var stopped = false

    /// A scheduler on `clock`; with a `queue`, its Dispatch timer fires there (the node's queue), without
    /// one it is manual.
    package init(clock: any MatterClock, queue: DispatchQueue?) {
        self.clock = clock
        self.queue = queue
    }

    /// True when no Dispatch timer runs: tests call ``service()``.
    package var isManual: Bool { queue == nil }

    /// The scheduler's current time, ms: inside a timer's action the deadline it fired at, otherwise
    /// the clock's.
    package var now: UInt64 { logicalNow ?? clock.nowMilliseconds() }

    /// A timer running `action` on the node's queue when it falls due. Arm it with
    /// ``NodeTimer/schedule(at:)`` or ``NodeTimer/start(after:)``.
    package func makeTimer(_ action: @escaping () -> Void) -> NodeTimer { NodeTimer(scheduler: self, action: action) }

    /// The earliest armed deadline.
    package var nextDeadline: UInt64? { earliestDeadline(owner: nil) }

    /// The earliest armed deadline of the timers tagged with `owner` (``NodeTimer/setOwner(_:)``).
    package func nextDeadline(ownedBy owner: AnyObject) -> UInt64? { earliestDeadline(owner: ObjectIdentifier(owner)) }

    private func earliestDeadline(owner: ObjectIdentifier?) -> UInt64? {
        var earliest: UInt64?
        for entry in entries {
            guard let timer = entry.timer, let deadline = timer.deadline, owner == nil || timer.owner == owner else {
                continue
            }
            if deadline < earliest ?? .max { earliest = deadline }
        }
        return earliest
    }

    /// Runs every timer due at the clock's current time, earliest first. A timer armed (or re-armed) by
    /// an action runs too when it falls due by that time, unless it was re-armed at or before the
    /// deadline it just fired at (it waits for the next servicing, so that servicing always ends).
    package func service() {
        guard !servicing, !stopped else { return }
        servicing = true
        let current = clock.nowMilliseconds()
        var fired: [ObjectIdentifier: UInt64] = [:]
        while let (timer, deadline) = earliestDue(by: current, fired: fired) {
            timer.deadline = nil
            fired[ObjectIdentifier(timer)] = deadline
            logicalNow = deadline
            timer.action()
        }
        logicalNow = nil
        servicing = false
        compact()
        rearm()
    }

    /// Cancels the Dispatch timer and every timer; later arming does nothing. Idempotent.
    package func stop() {
        stopped = true
        for entry in entries {
            entry.timer?.deadline = nil
            entry.timer?.isRegistered = false
        }
        entries = []
        source?.cancel()
        source = nil
        armed = nil
    }

    /// Cancels every timer made for `owner` (its tag, see ``NodeTimer/owner``).
    package func cancelTimers(ownedBy owner: AnyObject) {
        let id = ObjectIdentifier(owner)
        for entry in entries where entry.timer?.owner == id { entry.timer?.deadline = nil }
    }

    // MARK: - Called by NodeTimer

    func armed(_ timer: NodeTimer) {
        guard !stopped else {
            timer.deadline = nil
            return
        }
        if !timer.isRegistered {
            timer.isRegistered = true
            entries.append(Entry(timer: timer))
        }
        guard !servicing, let deadline = timer.deadline else { return }
        // Only an earlier deadline moves the Dispatch timer (rescheduling it wakes Dispatch's manager
        // thread, and nearly every message moves some deadline); one that fires early finds nothing due
        // and is pointed at the next deadline by `service()`.
        if let armed, armed <= deadline { return }
        arm(at: deadline)
    }

    // MARK: - Internals

    private func earliestDue(by time: UInt64, fired: [ObjectIdentifier: UInt64]) -> (NodeTimer, UInt64)? {
        var best: (NodeTimer, UInt64)?
        for entry in entries {
            guard let timer = entry.timer, let deadline = timer.deadline, deadline <= time else { continue }
            if let earlier = best, earlier.1 <= deadline { continue }
            if let previous = fired[ObjectIdentifier(timer)], deadline <= previous { continue }
            best = (timer, deadline)
        }
        return best
    }

    /// Forgets timers that are gone or disarmed.
    private func compact() {
        entries.removeAll { entry in
            guard let timer = entry.timer else { return true }
            guard timer.deadline == nil else { return false }
            timer.isRegistered = false
            return true
        }
    }

    /// Points the Dispatch timer at the earliest deadline (with nothing armed it stays as it is: it is
    /// one-shot and fires at most once more, finding nothing due).
    private func rearm() {
        armed = nil
        guard let deadline = nextDeadline else { return }
        arm(at: deadline)
    }

    private func arm(at deadline: UInt64) {
        guard let queue, !stopped else { return }
        let source = self.source ?? makeSource(queue)
        let current = clock.nowMilliseconds()
        let delay = deadline > current ? deadline - current : 0
        source.schedule(deadline: .now() + .milliseconds(Int(min(delay, UInt64(Int32.max)))), leeway: Self.leeway)
        armed = deadline
    }

    private func makeSource(_ queue: DispatchQueue) -> any DispatchSourceTimer {
        let source = DispatchSource.makeTimerSource(queue: queue)
        source.setEventHandler { [weak self] in
            guard let self else { return }
            self.armed = nil
            self.service()
        }
        source.schedule(deadline: .distantFuture)
        source.resume()
        self.source = source
        return source
    }

    deinit { source?.cancel() }
}
