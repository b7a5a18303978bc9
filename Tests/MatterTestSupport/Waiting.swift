import Foundation

/// Polls `condition` every `interval` until it holds or `limit` passes; whether it held. A hang guard
/// for conditions nothing signals (a file, a process's output): pass/fail never hinges on the time.
package func eventually(
    within limit: Duration = .seconds(20), every interval: Duration = .milliseconds(20),
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while true {
        if try await condition() { return true }
        if clock.now >= deadline { return false }
        try? await Task.sleep(for: interval)
    }
}

/// `eventually` for synchronous callers (blocks the thread between polls).
package func eventuallyBlocking(
    within limit: Duration = .seconds(5), every interval: Duration = .milliseconds(50), _ condition: () throws -> Bool
) rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while true {
        if try condition() { return true }
        if clock.now >= deadline { return false }
        Thread.sleep(forTimeInterval: interval / .seconds(1))
    }
}

/// Lets at most `limit` callers run a body at once (processes a suite starts in parallel on a small
/// machine); the others wait their turn in order.
package actor ConcurrencyLimit {
    /// How many bodies may run at once.
    package nonisolated let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// A limit of `limit` concurrent bodies (at least one).
    package init(_ limit: Int) { self.limit = max(1, limit) }

    /// Runs `body` once a slot is free (the body itself runs off the actor).
    package nonisolated func run<T>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        do {
            let result = try await body()
            await release()
            return result
        } catch {
            await release()
            throw error
        }
    }

    private func acquire() async {
        if running < limit {
            running += 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
    }

    private func release() {
        if waiting.isEmpty { running -= 1 } else { waiting.removeFirst().resume() }
    }
}
