import MatterCore

/// A one-shot timer of a cluster server (transitions, countdowns), run on its data model's
/// ``MatterCore/NodeScheduler`` (the node's one timer source).
///
/// Create it with ``ClusterServer/makeTimer(_:)``; `start(after:)` arms it relative to the scheduler's
/// current time. Inside a timer's action that time is the deadline the timer fired at, not the wall
/// clock, so a periodic timer restarted from its own action keeps an exact cadence however late it is
/// serviced: after a `ManualClock` moves by one second, a 100 ms timer runs ten times.
/// Confined to the node's queue, like everything in the data model.
package final class DataModelTimer {
    weak var owner: ClusterServer?
    /// The data model of a timer made with ``DeviceDataModel/makeTimer(_:)`` (no cluster server owns it).
    private weak var model: DeviceDataModel?
    let action: () -> Void
    /// Its timer on the scheduler of the data model it last ran in.
    private var timer: NodeTimer?

    init(owner: ClusterServer, action: @escaping () -> Void) {
        self.owner = owner
        self.action = action
    }

    init(model: DeviceDataModel, action: @escaping () -> Void) {
        self.model = model
        self.action = action
    }

    /// The data model that runs it.
    private var dataModel: DeviceDataModel? { model ?? owner?.dataModel }

    /// The time it fires at (scheduler clock, ms); nil when not running.
    package var deadline: UInt64? { timer?.deadline }

    /// True while armed.
    package var isRunning: Bool { deadline != nil }

    /// Arms the timer to fire `milliseconds` from now (at least 1 ms), replacing an earlier arming.
    /// A cluster server's timer counts simulated time: the data model's `timeScale` divides the wait
    /// (the root node's own timers keep real time). Does nothing while the cluster server is not part
    /// of a data model.
    package func start(after milliseconds: UInt64) {
        guard let dataModel else { return }
        let scale = dataModel.configuration.timeScale
        let wait =
            owner == nil || scale == 1 ? milliseconds : max(1, UInt64((Double(milliseconds) / scale).rounded()))
        let scheduler = dataModel.scheduler
        if timer?.scheduler !== scheduler {
            timer?.cancel()
            let action = self.action
            let made = scheduler.makeTimer(action)
            made.setOwner(dataModel)
            timer = made
        }
        timer?.start(after: wait)
    }

    /// Disarms the timer.
    package func cancel() { timer?.cancel() }
}
