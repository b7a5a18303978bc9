import MatterCore
import Synchronization
import Testing

@testable import MatterController

/// The commissioning runner on its own, without a network: steps are closures over a test context,
/// time is a `ManualClock`.
@MainActor
@Suite("CommissioningFlow")
struct CommissioningFlowTests {
    typealias Step = CommissioningStep<FlowTestContext>

    final class FlowTestContext: CommissioningFlowContext {
        var failSafe = FailSafeWindow()
        /// What ran, in order: stage names, "rearm", "rollback".
        var trace: [String] = []
        var rolledBackWith: ControllerError?
        var rollbackSawCancellation: Bool?
        var rearmFails = false
        var gate: CheckedContinuation<Void, Never>?
    }

    final class Checkpoints: Sendable {
        let reached = Mutex<[CommissioningCheckpoint]>([])
    }

    let clock = ManualClock(startingAt: 1_000)
    let checkpoints = Checkpoints()

    func flow(retries: Int = 2, sleeper: ClockSleeper? = nil) -> CommissioningFlow<FlowTestContext> {
        let checkpoints = checkpoints
        let timeline = CommissioningTimeline(
            clock: clock, progress: { _ in },
            checkpoint: { point in checkpoints.reached.withLock { $0.append(point) } })
        return CommissioningFlow(
            timeline: timeline, sleeper: sleeper ?? ClockSleeper(clock: clock, followsWallTime: false),
            retries: retries, log: Logger(label: "flow-test"),
            rearm: { context throws(ControllerError) in
                context.trace.append("rearm")
                if context.rearmFails { throw .unreachable("no answer") }
            },
            rollBack: { context, error in
                context.trace.append("rollback")
                context.rolledBackWith = error
                context.rollbackSawCancellation = Task.isCancelled
            })
    }

    /// A step that records its stage and succeeds with `detail`.
    static func recording(_ stage: CommissioningStage, failSafe: Step.FailSafe = .notNeeded, detail: String? = nil)
        -> Step
    {
        Step(stage, failSafe: failSafe) { context, _ in
            context.trace.append(stage.name)
            return detail
        }
    }

    /// Once `waiters` tasks wait on `sleeper`, moves the clock to 1 ms before `milliseconds` from now
    /// (nobody wakes), then to it.
    func passDeadline(of sleeper: ClockSleeper, waiters: Int, after milliseconds: UInt64) async {
        while sleeper.waiterCount < waiters { await Task.yield() }
        clock.advance(by: milliseconds - 1)
        sleeper.wakeDue()
        #expect(sleeper.waiterCount == waiters)
        clock.advance(by: 1)
        sleeper.wakeDue()
    }

    static func outcomes(_ events: [CommissioningEvent]) -> [String] {
        events.map { event in
            switch event.outcome {
            case .started: "\(event.stage.name) started"
            case .succeeded(let detail): "\(event.stage.name) ok \(detail ?? "-")"
            case .skipped(let reason): "\(event.stage.name) skipped \(reason)"
            case .failed(let error): "\(event.stage.name) failed \(error.underlying)"
            }
        }
    }

    @Test("runs the steps in order, skips what asks to be skipped, reports events and checkpoints")
    func order() async throws {
        let flow = flow()
        let context = FlowTestContext()
        let steps = [
            Self.recording(.discovery, detail: "found"), Self.recording(.pase),
            Step(
                .attestationVerification, skip: { _ in "not wanted" },
                work: { context, _ in
                    context.trace.append("attestation-verification")
                    return nil
                }),
            Self.recording(.issueNOC, detail: "noc"),
        ]
        try await flow.run(steps, in: context, isolation: MainActor.shared)
        #expect(context.trace == ["discovery", "pase", "issue-noc"])
        #expect(
            Self.outcomes(flow.timeline.events) == [
                "discovery started", "discovery ok found", "pase started", "pase ok -",
                "attestation-verification skipped not wanted", "issue-noc started", "issue-noc ok noc",
            ])
        #expect(
            checkpoints.reached.withLock { $0 } == [
                .after(.discovery), .after(.pase), .after(.attestationVerification), .after(.issueNOC),
            ])
        #expect(context.rolledBackWith == nil)
    }

    @Test("a step that retries is run again when the device did not answer, and learns it is a retry")
    func retries() async throws {
        let context = FlowTestContext()
        var attempts: [Bool] = []
        let flaky = Step(.armFailSafe, retry: .whenUnreachable("ArmFailSafe")) { _, attempt throws(ControllerError) in
            attempts.append(attempt.isRetry)
            if attempts.count < 3 { throw .unreachable("lost") }
            return "armed"
        }
        try await flow(retries: 2).run([flaky], in: context, isolation: MainActor.shared)
        #expect(attempts == [false, true, true])

        attempts = []
        let gaveUp = FlowTestContext()
        await #expect(throws: ControllerError.self) {
            try await flow(retries: 1).run([flaky], in: gaveUp, isolation: MainActor.shared)
        }
        #expect(attempts == [false, true])
        #expect(gaveUp.rolledBackWith?.underlying == .unreachable("lost"))
        guard case .commissioning(let stage, _)? = gaveUp.rolledBackWith else {
            Issue.record("expected a stage failure, got \(String(describing: gaveUp.rolledBackWith))")
            return
        }
        #expect(stage == .armFailSafe)
    }

    @Test("only a lost answer is retried, and only by a step that retries")
    func noRetry() async throws {
        var runs = 0
        let refused = Step(.csrRequest, retry: .whenUnreachable("CSRRequest")) { _, _ throws(ControllerError) in
            runs += 1
            throw .rejected("no")
        }
        let local = Step(.issueNOC) { _, _ throws(ControllerError) in
            runs += 1
            throw .unreachable("lost")
        }
        for step in [refused, local] {
            runs = 0
            let context = FlowTestContext()
            await #expect(throws: ControllerError.self) {
                try await flow().run([step], in: context, isolation: MainActor.shared)
            }
            #expect(runs == 1)
        }
    }

    @Test("a step that outlasts its timeout on the clock fails as unanswered, and is cancelled")
    func timeout() async throws {
        let sleeper = ClockSleeper(clock: clock, followsWallTime: false)
        let flow = flow(sleeper: sleeper)
        let context = FlowTestContext()
        let slow = Step(.readCommissioningInfo, timeout: 5_000) { context, _ in
            await sleeper.sleep(until: .max)
            context.trace.append(Task.isCancelled ? "cancelled" : "finished")
            return nil
        }
        let run = Task { try await flow.run([slow], in: context, isolation: MainActor.shared) }
        // The work's wait and the timeout's wait.
        await passDeadline(of: sleeper, waiters: 2, after: 5_000)
        let result = await run.result
        guard case .failure(let failure) = result, let error = failure as? ControllerError else {
            Issue.record("expected a timeout, got \(result)")
            return
        }
        #expect(error.underlying == .unreachable("read-commissioning-info did not finish within 5000 ms"))
        #expect(context.rolledBackWith == error)
        while !context.trace.contains("cancelled") { await Task.yield() }
    }

    @Test("the clock sleeper wakes at its deadline, not before")
    func sleeperDeadline() async {
        let sleeper = ClockSleeper(clock: clock, followsWallTime: false)
        let woke = Task { await sleeper.sleep(until: 1_500) }
        await passDeadline(of: sleeper, waiters: 1, after: 500)
        await woke.value
        #expect(sleeper.waiterCount == 0)
    }

    @Test("re-arm decision: a step expected to outlast the armed window re-arms it first")
    func rearmDecision() {
        var window = FailSafeWindow(milliseconds: 60_000)
        #expect(!window.needsRearm(at: 100_000, expecting: 1_000_000))
        window.armedAt = 10_000
        #expect(!window.needsRearm(at: 40_000, expecting: 30_000))
        #expect(window.needsRearm(at: 40_001, expecting: 30_000))
        #expect(window.needsRearm(at: 10_000, expecting: 60_001))
    }

    @Test("the flow re-arms before a step once half the window is gone, and only then")
    func rearmInFlow() async throws {
        let clock = clock
        let context = FlowTestContext()
        context.failSafe.milliseconds = 10_000
        let steps = [
            Self.recording(.armFailSafe, failSafe: .arms),
            Step(.csrRequest, failSafe: .needsArmed(expecting: nil)) { context, _ in
                context.trace.append("csr-request")
                clock.advance(by: 5_000)
                return nil
            },
            Self.recording(.addTrustedRootCertificate, failSafe: .needsArmed(expecting: .halfTheWindow)),
            Step(.addNOC, failSafe: .needsArmed(expecting: nil)) { context, _ in
                context.trace.append("add-noc")
                clock.advance(by: 5_001)
                return nil
            },
            Self.recording(.findOperational, failSafe: .needsArmed(expecting: .halfTheWindow)),
            Self.recording(.caseSession, failSafe: .needsArmed(expecting: .halfTheWindow)),
        ]
        try await flow().run(steps, in: context, isolation: MainActor.shared)
        #expect(
            context.trace == [
                "arm-fail-safe", "csr-request", "add-trusted-root-certificate", "add-noc", "rearm",
                "find-operational", "case-session",
            ])
        #expect(context.failSafe.mayBeArmed)
        #expect(context.failSafe.armedAt == 1_000 + 10_001)
    }

    @Test("a failed re-arm is only logged; a step that needs the fail-safe fails when it is not armed")
    func rearmFailureAndUnarmed() async throws {
        let context = FlowTestContext()
        context.failSafe = FailSafeWindow(mayBeArmed: true, armedAt: 0, milliseconds: 1_000)
        context.rearmFails = true
        try await flow().run(
            [Self.recording(.addNOC, failSafe: .needsArmed(expecting: .halfTheWindow))], in: context,
            isolation: MainActor.shared)
        #expect(context.trace == ["rearm", "add-noc"])
        #expect(context.failSafe.armedAt == 0)

        let unarmed = FlowTestContext()
        await #expect(throws: ControllerError.self) {
            try await flow().run(
                [Self.recording(.addNOC, failSafe: .needsArmed(expecting: nil))], in: unarmed,
                isolation: MainActor.shared)
        }
        #expect(unarmed.trace == ["rollback"])
    }

    @Test("a failing step stops the flow and rolls back once, with the error wrapped in its stage")
    func rollback() async throws {
        let flow = flow()
        let context = FlowTestContext()
        let steps = [
            Self.recording(.pase),
            Step(.configureRegulatory) { _, _ throws(ControllerError) in throw .rejected("refused") },
            Self.recording(.paiCertificate),
        ]
        await #expect(throws: ControllerError.commissioning(stage: .configureRegulatory, .init(.rejected("refused")))) {
            try await flow.run(steps, in: context, isolation: MainActor.shared)
        }
        #expect(context.trace == ["pase", "rollback"])
        #expect(context.rolledBackWith == .commissioning(stage: .configureRegulatory, .init(.rejected("refused"))))
        #expect(context.rollbackSawCancellation == false)
        #expect(Self.outcomes(flow.timeline.events).last == "configure-regulatory failed refused")
    }

    @Test("cancelling stops the flow before its next step; the rollback runs outside the cancellation")
    func cancellation() async throws {
        let flow = flow()
        let context = FlowTestContext()
        let steps = [
            Step(.pase) { context, _ in
                await withCheckedContinuation { context.gate = $0 }
                context.trace.append("pase")
                return nil
            },
            Self.recording(.readCommissioningInfo),
        ]
        let run = Task { try await flow.run(steps, in: context, isolation: MainActor.shared) }
        while context.gate == nil { await Task.yield() }
        run.cancel()
        context.gate?.resume()
        let result = await run.result
        guard case .failure(let failure) = result, let error = failure as? ControllerError else {
            Issue.record("expected a cancellation, got \(result)")
            return
        }
        #expect(error.isCancellation)
        guard case .commissioning(let stage, _) = error else {
            Issue.record("expected a stage failure, got \(error)")
            return
        }
        #expect(stage == .readCommissioningInfo)
        #expect(context.trace == ["pase", "rollback"])
        #expect(context.rollbackSawCancellation == false)
    }
}
