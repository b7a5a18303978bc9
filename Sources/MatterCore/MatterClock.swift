import Synchronization

/// Monotonic time in milliseconds, as protocol timers (MRP, fail-safe, subscriptions) see it.
/// Production code uses `SystemClock`; tests drive a `ManualClock` by hand.
public protocol MatterClock: Sendable {
    /// Milliseconds since an arbitrary, fixed origin; never goes backwards.
    func nowMilliseconds() -> UInt64
}

/// The system's monotonic clock (`CLOCK_MONOTONIC`).
public struct SystemClock: MatterClock {
    public init() {}
    public func nowMilliseconds() -> UInt64 {
        // The origin is read first: it is set lazily on the first call, and reading `now` before it
        // made that first difference negative (a trap in UInt64(_:) when the thread was descheduled
        // for a millisecond in between).
        let origin = SystemClock.origin
        let (seconds, attoseconds) = (ContinuousClock.now - origin).components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        return UInt64(seconds) * 1000 + UInt64(attoseconds / 1_000_000_000_000_000)
    }
    private static let origin = ContinuousClock.now
}

/// A clock that moves only when told to, for deterministic tests of timers.
package final class ManualClock: MatterClock {
    private let now: Mutex<UInt64>

    package init(startingAt milliseconds: UInt64 = 0) { now = Mutex(milliseconds) }

    package func nowMilliseconds() -> UInt64 { now.withLock { $0 } }

    /// Moves the clock forward.
    package func advance(by milliseconds: UInt64) { now.withLock { $0 += milliseconds } }
}
