import MatterCore
import Synchronization

/// Waits on the controller's injected clock (``ControllerConfiguration/clock``): every deadline is a
/// reading of that clock, not of the wall, and a waiter wakes once the clock has passed it.
///
/// Something has to wake a waiting task, and `MatterClock` only tells the time: with
/// `followsWallTime` (the default) each waiter sleeps the clock's remaining time in wall time and
/// reads the clock again (on the system clock the two agree). Tests on a `ManualClock` turn it off
/// and call ``wakeDue()`` after advancing the clock, as they drive the transport's timers.
final class ClockSleeper: Sendable {
    private struct Waiter {
        let deadline: UInt64
        let continuation: CheckedContinuation<Void, Never>
        var wall: Task<Void, Never>?
    }

    private struct State {
        var next = 0
        var waiting: [Int: Waiter] = [:]
    }

    let clock: any MatterClock
    private let followsWallTime: Bool
    private let state = Mutex(State())

    init(clock: any MatterClock, followsWallTime: Bool = true) {
        self.clock = clock
        self.followsWallTime = followsWallTime
    }

    /// The clock's reading, milliseconds.
    var now: UInt64 { clock.nowMilliseconds() }

    /// Returns once the clock reads `deadline` or later, or as soon as the calling task is cancelled
    /// (callers check `Task.isCancelled`, as after `try? await Task.sleep`).
    func sleep(until deadline: UInt64) async {
        let id = state.withLock { state in
            state.next += 1
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let due = state.withLock { state in
                    guard clock.nowMilliseconds() < deadline, !Task.isCancelled else { return true }
                    state.waiting[id] = Waiter(deadline: deadline, continuation: continuation)
                    return false
                }
                if due {
                    continuation.resume()
                } else if followsWallTime {
                    startWallWait(id, deadline: deadline)
                }
            }
        } onCancel: {
            wake(id)
        }
    }

    /// Wakes every waiter whose deadline the clock has reached.
    func wakeDue() {
        let now = clock.nowMilliseconds()
        let due = state.withLock { state in state.waiting.filter { $0.value.deadline <= now }.map(\.key) }
        for id in due { wake(id) }
    }

    /// The number of tasks waiting (for tests: a waiter is in place before the clock moves).
    var waiterCount: Int { state.withLock { $0.waiting.count } }

    private func wake(_ id: Int) {
        let waiter = state.withLock { $0.waiting.removeValue(forKey: id) }
        waiter?.wall?.cancel()
        waiter?.continuation.resume()
    }

    /// The wall-time sleep that must stay: it is what wakes a waiter on a real clock. It sleeps what
    /// the clock says is left, and again when the clock ran slower than the wall.
    private func startWallWait(_ id: Int, deadline: UInt64) {
        let task = Task {
            while !Task.isCancelled {
                let now = clock.nowMilliseconds()
                guard now < deadline else { break }
                try? await Task.sleep(for: .milliseconds(deadline - now))
            }
            if !Task.isCancelled { wake(id) }
        }
        let stale = state.withLock { state in
            guard state.waiting[id] != nil else { return true }
            state.waiting[id]?.wall = task
            return false
        }
        if stale { task.cancel() }
    }
}

extension ClockSleeper {
    /// Runs `work` in a task of its own and waits for it at most `milliseconds` on the clock: its
    /// result, or nil when the time ran out first. Work still running then is cancelled, unless
    /// `leavingLateWork` (a request on its way that should still reach the peer); it is not waited for.
    /// Cancelling the caller cancels the work and waits for its result.
    func result<T: Sendable>(
        within milliseconds: UInt64, leavingLateWork: Bool = false, isolation: isolated any Actor,
        _ work: @escaping () async throws(ControllerError) -> T
    ) async -> Result<T, ControllerError>? {
        let deadline = now &+ milliseconds
        let (answers, answer) = AsyncStream.makeStream(of: Result<T, ControllerError>?.self)
        let task = isolation.task { () async -> Result<T, ControllerError> in
            let result: Result<T, ControllerError>
            do throws(ControllerError) { result = .success(try await work()) } catch { result = .failure(error) }
            answer.yield(result)
            return result
        }
        let timer = Task {
            await self.sleep(until: deadline)
            answer.yield(nil)
        }
        let outcome = await withTaskCancellationHandler {
            var iterator = answers.makeAsyncIterator()
            return await iterator.next() ?? nil
        } onCancel: {
            task.cancel()
        }
        timer.cancel()
        answer.finish()
        if outcome == nil, Task.isCancelled { return await task.value }
        if outcome == nil, !leavingLateWork { task.cancel() }
        return outcome
    }
}

extension Actor {
    /// `work` in a new task isolated to this actor: what the caller's isolation holds (a flow's
    /// context, a step's work) stays in it, while the caller waits for something else too.
    func task<T: Sendable>(_ work: @escaping () async -> T) -> Task<T, Never> {
        Task {
            _ = self  // the capture makes the task isolated to this actor
            return await work()
        }
    }
}
