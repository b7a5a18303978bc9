import Dispatch
import Synchronization

/// Blocks whoever waits until released (or 60 s pass): a controller's checkpoint hook that blocks on
/// it freezes the commissioning there (its queue blocks, so it sends nothing more, as a killed process).
package final class CheckpointGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let reached = Mutex(false)

    package init() {}

    /// Whether someone blocked on the gate.
    package var wasReached: Bool { reached.withLock { $0 } }

    /// Blocks the calling thread until `release()` (at most 60 s).
    package func block() {
        reached.withLock { $0 = true }
        _ = semaphore.wait(timeout: .now() + 60)
    }

    /// Lets one blocked caller go on.
    package func release() { semaphore.signal() }
}
