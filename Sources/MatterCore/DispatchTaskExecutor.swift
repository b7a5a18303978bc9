import Dispatch

/// A task executor on a serial queue of its own (a queue gets a thread of its own when it has work): for
/// the tasks a blocked thread waits on (an HTTP request's handler, a control-socket line's answer), so
/// that their answers do not wait for a thread of the process's shared concurrency pool, which has as
/// many threads as cores and which long-running work elsewhere in the process can hold for many seconds.
/// The tasks are short: they build an answer, or await a node.
package final class DispatchTaskExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the only stored property is an immutable DispatchQueue, which is thread-safe.
    private let queue: DispatchQueue

    package init(label: String) { queue = DispatchQueue(label: label) }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
