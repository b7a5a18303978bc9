import MatterCore

/// The device's fail-safe as a commissioning flow knows it.
struct FailSafeWindow: Equatable {
    /// The device may hold an armed fail-safe of ours (ArmFailSafe succeeded, or PASE armed one): a
    /// rollback disarms it.
    var mayBeArmed = false
    /// When ArmFailSafe last succeeded, clock milliseconds (nil: not armed by us yet).
    var armedAt: UInt64?
    /// How long each arming lasts, milliseconds.
    var milliseconds: UInt64 = 60_000

    /// Whether a step expected to take `expecting` milliseconds, starting `now`, would outlast the
    /// armed window (false when it is not armed).
    func needsRearm(at now: UInt64, expecting: UInt64) -> Bool {
        guard let armedAt else { return false }
        return (now &- armedAt) &+ expecting > milliseconds
    }
}

/// What a flow keeps its fail-safe bookkeeping in.
protocol CommissioningFlowContext: AnyObject, SendableMetatype {
    var failSafe: FailSafeWindow { get set }
}

/// Runs commissioning steps in order, and owns what every step shares: the stop check and the
/// progress events and checkpoints (through its ``CommissioningTimeline``), retries and timeouts on
/// the injected clock, re-arming the fail-safe before a step that would outlast it, and the rollback
/// when a step fails. Confined to the controller's isolation, like its context.
final class CommissioningFlow<Context: CommissioningFlowContext> {
    typealias Rearm = (Context) async throws(ControllerError) -> Void
    typealias RollBack = (Context, ControllerError) async -> Void

    let timeline: CommissioningTimeline
    private let sleeper: ClockSleeper
    private let retries: Int
    private let log: Logger
    private let rearm: Rearm
    private let rollBack: RollBack

    /// A flow reporting to `timeline`; `retries` more attempts for a step that retries; `rearm` arms
    /// the fail-safe again for its window; `rollBack` undoes what the steps did when one failed.
    init(
        timeline: CommissioningTimeline, sleeper: ClockSleeper, retries: Int, log: Logger,
        rearm: @escaping Rearm, rollBack: @escaping RollBack
    ) {
        self.timeline = timeline
        self.sleeper = sleeper
        self.retries = max(0, retries)
        self.log = log
        self.rearm = rearm
        self.rollBack = rollBack
    }

    /// Runs `steps` in order on `context`. When one fails, what the steps did is rolled back and its
    /// error (wrapped with its stage) is rethrown. A cancelled caller stops before the next step; the
    /// rollback then runs in a task of its own, which the cancellation does not reach.
    func run(
        _ steps: [CommissioningStep<Context>], in context: Context, isolation: isolated any Actor
    ) async throws(ControllerError) {
        do {
            for step in steps { try await run(step, in: context, isolation: isolation) }
        } catch {
            if error.isCancellation {
                let rollBack = rollBack
                await isolation.task { await rollBack(context, error) }.value
            } else {
                await rollBack(context, error)
            }
            throw error
        }
    }

    private func run(
        _ step: CommissioningStep<Context>, in context: Context, isolation: isolated any Actor
    ) async throws(ControllerError) {
        if let reason = step.skip?(context) {
            timeline.skip(step.stage, reason: reason)
            return
        }
        if case .needsArmed(let expecting?) = step.failSafe { await rearmIfNeeded(context, expecting: expecting) }
        try await timeline.run(step.stage) { () throws(ControllerError) -> String? in
            if case .needsArmed = step.failSafe, context.failSafe.armedAt == nil {
                throw .internalFailure("stage \(step.stage.name) needs the fail-safe armed")
            }
            return try await attempts(of: step, in: context, isolation: isolation)
        }
        if step.failSafe == .arms {
            context.failSafe.mayBeArmed = true
            context.failSafe.armedAt = sleeper.now
        }
    }

    /// Re-arms over the session the fail-safe was armed on when less than `expecting` of its window is
    /// left (lost messages and their retries slow commissioning down), as the SDK's commissioner may
    /// before CASE. A failure is only logged: the device caps the total at MaxCumulativeFailsafeSeconds.
    private func rearmIfNeeded(_ context: Context, expecting: CommissioningStep<Context>.Expectation) async {
        let window = context.failSafe.milliseconds
        guard context.failSafe.needsRearm(at: sleeper.now, expecting: expecting.milliseconds(ofWindow: window))
        else { return }
        do {
            try await rearm(context)
            context.failSafe.armedAt = sleeper.now
            log.info("re-armed the fail-safe for \(window / 1000) s")
        } catch {
            log.info("could not re-arm the fail-safe: \(error)")
        }
    }

    /// The step's work, again (by its retry policy) when the device did not answer.
    private func attempts(
        of step: CommissioningStep<Context>, in context: Context, isolation: isolated any Actor
    ) async throws(ControllerError) -> String? {
        var number = 0
        while true {
            do throws(ControllerError) {
                return try await attempt(step, number: number, in: context, isolation: isolation)
            } catch {
                guard case .whenUnreachable(let label) = step.retry, error.category == .unreachable, number < retries
                else { throw error }
                number += 1
                log.info("\(label): \(error); sending it again (\(number) of \(retries))")
            }
        }
    }

    /// One run of the work, bounded by the step's timeout on the clock (a timeout counts as no answer).
    private func attempt(
        _ step: CommissioningStep<Context>, number: Int, in context: Context, isolation: isolated any Actor
    ) async throws(ControllerError) -> String? {
        let attempt = CommissioningStep<Context>.Attempt(number: number)
        guard let timeout = step.timeout else { return try await step.work(context, attempt) }
        let work = step.work
        let result = await sleeper.result(within: timeout, isolation: isolation) { () throws(ControllerError) in
            try await work(context, attempt)
        }
        switch result {
        case .success(let detail)?: return detail
        case .failure(let error)?: throw error
        case nil: throw .unreachable("\(step.stage.name) did not finish within \(timeout) ms")
        }
    }
}
