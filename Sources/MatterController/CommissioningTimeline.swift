import MatterCore

/// Runs commissioning stages one by one, timing each and reporting its events. Confined to the
/// controller's isolation.
final class CommissioningTimeline {
    private let clock: any MatterClock
    private let progress: @Sendable (CommissioningEvent) -> Void
    private let checkpoint: (@Sendable (CommissioningCheckpoint) -> Void)?
    private(set) var events: [CommissioningEvent] = []

    init(
        clock: any MatterClock, progress: @escaping @Sendable (CommissioningEvent) -> Void,
        checkpoint: (@Sendable (CommissioningCheckpoint) -> Void)? = nil
    ) {
        self.clock = clock
        self.progress = progress
        self.checkpoint = checkpoint
    }

    /// Calls the test hook (``ControllerConfiguration/checkpoint``) at `point`.
    func reached(_ point: CommissioningCheckpoint) { checkpoint?(point) }

    /// Runs `body` as `stage`: a `started` event, then `succeeded` (with the detail `body` returns) or
    /// `failed`. A failure is rethrown wrapped with its stage.
    ///
    /// The stop check: when the calling task is cancelled, the stage does not start (it fails with
    /// ``ControllerError/cancelled(_:)``, and the caller undoes what the stages before it did); a
    /// stage that fails while the task is cancelled fails as cancelled too.
    func run(
        _ stage: CommissioningStage, _ body: () async throws(ControllerError) -> String?
    ) async throws(ControllerError) {
        let start = clock.nowMilliseconds()
        if Task.isCancelled {
            let cancelled = ControllerError.commissioning(
                stage: stage, CommissioningStageFailure(.cancelled("stopped before stage \(stage.name)")))
            emit(CommissioningEvent(stage: stage, outcome: .failed(cancelled), durationMilliseconds: 0))
            throw cancelled
        }
        emit(CommissioningEvent(stage: stage, outcome: .started, durationMilliseconds: 0))
        do {
            let detail = try await body()
            emit(
                CommissioningEvent(
                    stage: stage, outcome: .succeeded(detail: detail), durationMilliseconds: elapsed(start)))
            reached(.after(stage))
        } catch {
            var reason = error
            if Task.isCancelled, !error.isCancellation { reason = .cancelled("stage \(stage.name) stopped: \(error)") }
            let wrapped: ControllerError =
                if case .commissioning = reason { reason } else {
                    .commissioning(stage: stage, CommissioningStageFailure(reason))
                }
            emit(CommissioningEvent(stage: stage, outcome: .failed(wrapped), durationMilliseconds: elapsed(start)))
            throw wrapped
        }
    }

    /// Records a stage that did not run.
    func skip(_ stage: CommissioningStage, reason: String) {
        emit(CommissioningEvent(stage: stage, outcome: .skipped(reason: reason), durationMilliseconds: 0))
        reached(.after(stage))
    }

    private func elapsed(_ start: UInt64) -> UInt64 {
        let now = clock.nowMilliseconds()
        return now >= start ? now - start : 0
    }

    private func emit(_ event: CommissioningEvent) {
        events.append(event)
        progress(event)
    }
}
