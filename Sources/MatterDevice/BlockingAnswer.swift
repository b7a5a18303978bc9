import Dispatch
import MatterCore
import Synchronization

/// Runs an async line handler from a thread that must wait for its answer (the control socket's and
/// the app pipe's reader threads): starts a task, blocks until it answers, returns the answer.
enum BlockingAnswer {
    /// Where the answers are computed (not on the shared concurrency pool).
    static let executor = DispatchTaskExecutor(label: "matter-emu.control.answers")

    static func wait(for line: String, _ handler: @escaping @Sendable (String) async -> String) -> String {
        let answer = Answer()
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: executor) {
            let result = await handler(line)
            answer.value.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return answer.value.withLock { $0 }
    }

    /// The answer, handed from the task to the waiting thread.
    private final class Answer: Sendable {
        let value = Mutex("")
    }
}
