import Dispatch
import MatterCore

/// One Dispatch timer that wakes an engine at its earliest deadline. The event handler runs on a private
/// queue and must hop onto the node (the engine's `serviceTimers()` does); deadlines are clock
/// milliseconds. `schedule`, `fired` and `cancel` are called from the node's queue only.
final class EngineTimer: @unchecked Sendable {
    // @unchecked: `scheduled` is touched only from the node's queue; the source is thread-safe.
    private let queue = DispatchQueue(label: "matter.interaction.timer")
    private var source: (any DispatchSourceTimer)?
    private var scheduled: UInt64?
    private let fire: @Sendable () -> Void

    init(fire: @escaping @Sendable () -> Void) { self.fire = fire }

    /// Wakes at `deadline` (nil parks the timer).
    func schedule(at deadline: UInt64?, now: UInt64) {
        guard let deadline else {
            if scheduled != nil { source?.schedule(deadline: .distantFuture) }
            scheduled = nil
            return
        }
        if scheduled == deadline { return }
        let source = self.source ?? makeSource()
        let delay = deadline > now ? deadline - now : 0
        source.schedule(deadline: .now() + .milliseconds(Int(min(delay, UInt64(Int32.max)))), leeway: .milliseconds(5))
        scheduled = deadline
    }

    /// Forgets the scheduled deadline after a wake-up, so the next `schedule` re-arms.
    func fired() { scheduled = nil }

    func cancel() {
        source?.cancel()
        source = nil
        scheduled = nil
    }

    private func makeSource() -> any DispatchSourceTimer {
        let source = DispatchSource.makeTimerSource(queue: queue)
        let fire = self.fire
        source.setEventHandler { fire() }
        source.schedule(deadline: .distantFuture)
        source.resume()
        self.source = source
        return source
    }

    deinit { source?.cancel() }
}
