import Dispatch
import Synchronization

/// Blocks whoever waits until released (or 60 s pass): a controller's checkpoint hook that blocks on
/// it freezes the commissioning there (its queue blocks, so it sends nothing more, as a killed process).
public final class CheckpointGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let reached = Mutex(false)

    public init() {}

    /// Whether someone blocked on the gate.
    public var wasReached: Bool { reached.withLock { $0 } }

    /// Blocks the calling thread until `release()` (at most 60 s).
    public func block() {
        reached.withLock { $0 = true }
        _ = semaphore.wait(timeout: .now() + 60)
    }

    /// Lets one blocked caller go on.
    public func release() { semaphore.signal() }
}
