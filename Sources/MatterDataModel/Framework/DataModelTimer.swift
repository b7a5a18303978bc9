import Dispatch
import MatterCore

/// A one-shot timer of a cluster server (transitions, countdowns), run by its data model.
///
/// Create it with ``ClusterServer/makeTimer(_:)``; `start(after:)` arms it relative to the data
/// model's current time. Inside a timer's action that time is the deadline the timer fired at, not
/// the wall clock, so a periodic timer restarted from its own action keeps an exact cadence however
/// late it is serviced: after a `ManualClock` moves by one second, a 100 ms timer runs ten times.
/// Confined to the node's queue, like everything in the data model.
public final class DataModelTimer: @unchecked Sendable {
    // @unchecked: touched only on the node's queue (see DeviceDataModel).
    weak var owner: ClusterServer?
    /// The data model of a timer made with ``DeviceDataModel/makeTimer(_:)`` (no cluster server owns it).
    private weak var model: DeviceDataModel?
    let action: () -> Void
    /// The time it fires at (data-model clock, ms); nil when not running.
    public internal(set) var deadline: UInt64?

    init(owner: ClusterServer, action: @escaping () -> Void) {
        self.owner = owner
        self.action = action
    }

    init(model: DeviceDataModel, action: @escaping () -> Void) {
        self.model = model
        self.action = action
    }

    /// The scheduler that runs it: its data model's.
    private var scheduler: TimerScheduler? { (model ?? owner?.dataModel)?.scheduler }

    /// True while armed.
    public var isRunning: Bool { deadline != nil }

    /// Arms the timer to fire `milliseconds` from now (at least 1 ms), replacing an earlier arming.
    /// Does nothing while the cluster server is not part of a data model.
    public func start(after milliseconds: UInt64) {
        guard let scheduler else { return }
        deadline = scheduler.now + max(milliseconds, 1)
        scheduler.register(self)
    }

    /// Disarms the timer.
    public func cancel() {
        guard deadline != nil else { return }
        deadline = nil
        scheduler?.rearm()
    }
}

/// Runs the due timers of one data model: from a Dispatch timer on the node's queue, or from a test
/// that moved a `ManualClock` and calls ``DeviceDataModel/serviceTimers()``.
final class TimerScheduler: @unchecked Sendable {
    // @unchecked: confined to the node's queue; the Dispatch source fires on that queue.
    private struct WeakTimer {
        weak var timer: DataModelTimer?
    }

    let clock: any MatterClock
    private let queue: DispatchQueue?
    private var timers: [ObjectIdentifier: WeakTimer] = [:]
    /// During servicing: the deadline being serviced.
    private var logicalNow: UInt64?
    private var servicing = false
    private var source: (any DispatchSourceTimer)?
    private var armed: UInt64?

    init(clock: any MatterClock, queue: DispatchQueue?) {
        self.clock = clock
        self.queue = queue
    }

    /// The data model's current time, ms.
    var now: UInt64 { logicalNow ?? clock.nowMilliseconds() }

    func register(_ timer: DataModelTimer) {
        timers[ObjectIdentifier(timer)] = WeakTimer(timer: timer)
        rearm()
    }

    /// The earliest armed deadline.
    var nextDeadline: UInt64? {
        timers.values.compactMap { $0.timer?.deadline }.min()
    }

    /// Fires every timer due at the clock's current time, earliest first (timers armed by an action
    /// fire too when they fall due before that time).
    func service() {
        guard !servicing else { return }
        servicing = true
        let current = clock.nowMilliseconds()
        while let (timer, deadline) = earliestDue(by: current) {
            timer.deadline = nil
            logicalNow = deadline
            timer.action()
        }
        logicalNow = nil
        servicing = false
        timers = timers.filter { $0.value.timer?.deadline != nil }
        rearm()
    }

    private func earliestDue(by time: UInt64) -> (DataModelTimer, UInt64)? {
        var best: (DataModelTimer, UInt64)?
        for entry in timers.values {
            guard let timer = entry.timer, let deadline = timer.deadline, deadline <= time else { continue }
            if let earlier = best, earlier.1 <= deadline { continue }
            best = (timer, deadline)
        }
        return best
    }

    /// Points the Dispatch timer (if any) at the earliest deadline.
    func rearm() {
        guard let queue, !servicing else { return }
        let deadline = nextDeadline
        guard deadline != armed else { return }
        armed = deadline
        let source = self.source ?? makeSource(queue)
        guard let deadline else {
            source.schedule(deadline: .distantFuture)
            return
        }
        let current = clock.nowMilliseconds()
        let delay = deadline > current ? deadline - current : 0
        source.schedule(deadline: .now() + .milliseconds(Int(min(delay, UInt64(Int32.max)))), leeway: .milliseconds(2))
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

    /// Disarms everything (shutdown).
    func cancelAll() {
        for entry in timers.values { entry.timer?.deadline = nil }
        timers = [:]
        source?.cancel()
        source = nil
        armed = nil
    }

    deinit { source?.cancel() }
}
