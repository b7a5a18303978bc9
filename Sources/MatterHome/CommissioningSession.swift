import MatterController
import MatterCore
import MatterStorage
import Synchronization

/// The commissioning lifecycle of one open home: prepared (the state directory's lock held), at most
/// one commissioning in flight, the devices commissioned since prepare, and the clean-up of a
/// cancelled commissioning that runs on its own.
final class CommissioningSession: Sendable {
    typealias Outcome = Result<CommissioningResult, ControllerError>

    private struct InFlight {
        let token: Int
        let work: Task<Outcome, Never>
        let undo: @Sendable (CommissioningResult) async -> Void
        var waiter: CheckedContinuation<Result<CommissioningResult, HomeError>, Never>?
        var outcome: Outcome?
    }

    private struct State {
        var lock: CommissioningLockFile?
        var commissioned: [NodeID] = []
        var inFlight: InFlight?
        var cleanup: Task<Void, Never>?
        var nextToken = 0
    }

    private let lockPath: String
    private let state = Mutex(State())

    init(lockPath: String) { self.lockPath = CommissioningLockFile.path(storePath: lockPath) }

    /// Waits for a cancelled commissioning's clean-up, then takes the state directory's lock.
    func prepare() async throws(HomeError) {
        await waitForCleanup()
        let alreadyPrepared = state.withLock { $0.lock != nil }
        if alreadyPrepared {
            throw HomeError(
                .commissioning,
                "commissioning is already prepared in this home: complete or cancel it before preparing again")
        }
        let lock = try CommissioningLockFile.acquire(path: lockPath)
        let raced = state.withLock { s -> Bool in
            if s.lock != nil { return true }
            s.lock = lock
            s.commissioned = []
            return false
        }
        if raced {
            lock.release()
            throw HomeError(.commissioning, "commissioning is already prepared in this home")
        }
    }

    /// Waits until no clean-up is running.
    func waitForCleanup() async {
        while let cleanup = state.withLock({ $0.cleanup }) {
            await cleanup.value
            state.withLock { s in
                if s.cleanup == cleanup { s.cleanup = nil }
            }
        }
    }

    /// Starts `work` as the commissioning in flight and waits for it (or for its cancellation).
    /// `undo` removes what a commissioning that finished after it was cancelled left behind.
    func run(
        _ work: @escaping @Sendable () async -> Outcome, undo: @escaping @Sendable (CommissioningResult) async -> Void
    ) async -> Result<CommissioningResult, HomeError> {
        let started = state.withLock { s -> Result<(Int, Task<Outcome, Never>), HomeError> in
            guard s.lock != nil else {
                return .failure(
                    .invalid(
                        "call prepareForMatterCommissioning() before commissioning a device", code: .failedPrecondition)
                )
            }
            guard s.inFlight == nil else {
                return .failure(HomeError(.commissioning, "a commissioning is already running in this home"))
            }
            let token = s.nextToken
            s.nextToken += 1
            let task = Task { await work() }
            s.inFlight = InFlight(token: token, work: task, undo: undo)
            return .success((token, task))
        }
        guard case .success(let (token, task)) = started else {
            if case .failure(let error) = started { return .failure(error) }
            return .failure(HomeError(.internalFailure, "commissioning did not start"))
        }
        Task { [self] in finish(token, await task.value) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { s -> Result<CommissioningResult, HomeError>? in
                    guard var flight = s.inFlight, flight.token == token else { return .failure(Self.cancelled) }
                    if let outcome = flight.outcome {
                        s.inFlight = nil
                        return Self.settle(outcome, into: &s)
                    }
                    flight.waiter = continuation
                    s.inFlight = flight
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel(token: token)
        }
    }

    private static let cancelled = HomeError(.cancelled, "the commissioning was cancelled")

    private static func settle(_ outcome: Outcome, into state: inout State) -> Result<CommissioningResult, HomeError> {
        switch outcome {
        case .success(let result):
            state.commissioned.append(result.node.nodeID)
            return .success(result)
        case .failure(let error):
            return .failure(HomeError(error))
        }
    }

    private func finish(_ token: Int, _ outcome: Outcome) {
        let resume = state.withLock {
            s -> (
                CheckedContinuation<Result<CommissioningResult, HomeError>, Never>,
                Result<CommissioningResult, HomeError>
            )? in
            guard var flight = s.inFlight, flight.token == token else { return nil }
            guard let waiter = flight.waiter else {
                flight.outcome = outcome
                s.inFlight = flight
                return nil
            }
            s.inFlight = nil
            return (waiter, Self.settle(outcome, into: &s))
        }
        if let (waiter, result) = resume { waiter.resume(returning: result) }
    }

    /// The node commissioned last since prepare.
    var lastCommissioned: NodeID? { state.withLock { $0.commissioned.last } }

    /// Ends the session: the IDs commissioned since prepare.
    func complete() throws(HomeError) -> [NodeID] {
        let outcome = state.withLock { s -> Result<([NodeID], CommissioningLockFile?), HomeError> in
            guard s.lock != nil else {
                return .failure(.invalid("no commissioning was prepared", code: .failedPrecondition))
            }
            guard s.inFlight == nil else {
                return .failure(
                    HomeError(
                        .commissioning, "a commissioning is still running: wait for it or cancel it before completing"))
            }
            defer {
                s.lock = nil
                s.commissioned = []
            }
            return .success((s.commissioned, s.lock))
        }
        switch outcome {
        case .success(let (ids, lock)):
            lock?.release()
            return ids
        case .failure(let error):
            throw error
        }
    }

    /// Cancels the commissioning in flight (if `token` is nil, whichever it is) and ends the session.
    /// Returns at once; the clean-up (waiting for the commissioning to stop, removing what it left)
    /// runs on its own and holds the state directory's lock until it is done.
    func cancel(token: Int? = nil) {
        // The clean-up is registered in the same critical section that ends the session, before the
        // waiting caller is resumed: a caller that goes on to prepare again finds it and waits for it.
        let (flight, lock) = state.withLock { s -> (InFlight?, CommissioningLockFile?) in
            if let token, s.inFlight?.token != token { return (nil, nil) }
            let flight = s.inFlight
            let lock = s.lock
            s.inFlight = nil
            s.lock = nil
            s.commissioned = []
            if let flight {
                let previous = s.cleanup
                s.cleanup = Task {
                    await previous?.value
                    if case .success(let result) = await flight.work.value { await flight.undo(result) }
                    lock?.release()
                }
            }
            return (flight, lock)
        }
        guard let flight else {
            lock?.release()
            return
        }
        flight.waiter?.resume(returning: .failure(Self.cancelled))
        // The controller stops before its next stage and undoes what it did on the device.
        flight.work.cancel()
    }

    /// Cancels anything in flight and waits for its clean-up (the home is closing).
    func shutDown() async {
        cancel()
        await waitForCleanup()
    }
}
