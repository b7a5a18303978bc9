package import Dispatch

/// A `SerialExecutor` backed by one serial `DispatchQueue`, so an actor and the Dispatch callbacks of
/// its sockets and timers share one isolation domain: handlers on `queue` enter the actor with
/// `assumeIsolated`, without a hop. (Linux Dispatch has no `DispatchSerialQueue` executor.)
package final class DispatchQueueExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked: the only stored property is an immutable DispatchQueue, which is thread-safe.
    /// The serial queue every job of this executor runs on.
    package let queue: DispatchQueue

    package init(label: String) { self.queue = DispatchQueue(label: label) }

    /// Uses an existing serial queue (e.g. the one a socket's read source runs on).
    package init(queue: DispatchQueue) { self.queue = queue }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        // The block keeps the executor alive until the job ran: an `UnownedSerialExecutor` does not,
        // and its owner (a node) may go away while jobs are still queued.
        queue.async { [self] in job.runSynchronously(on: asUnownedSerialExecutor()) }
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(complexEquality: self)
    }

    package func isSameExclusiveExecutionContext(other: DispatchQueueExecutor) -> Bool { self === other }

    /// Lets `actor.assumeIsolated {}` succeed from a plain block running on `queue`.
    package func checkIsolated() { dispatchPrecondition(condition: .onQueue(queue)) }
}
