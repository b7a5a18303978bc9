import Dispatch
import Synchronization
import Testing

@testable import MatterCore

/// Records what the timers' actions saw, in order.
final class FiringLog {
    var entries: [(name: String, now: UInt64)] = []
    var names: [String] { entries.map(\.name) }
    var times: [UInt64] { entries.map(\.now) }
}

/// What a Dispatch-driven test shares with the node's queue.
final class QueueShared: Sendable {
    let fired = Mutex<[String]>([])
}

/// Keeps a Dispatch-driven test's timers alive (the scheduler holds them weakly).
final class TimerKeeper: @unchecked Sendable {
    // @unchecked: set and dropped on the test's node queue only.
    var timers: [NodeTimer] = []
}

@Suite("Node scheduler: one timer source per node")
struct NodeSchedulerTests {
    @Test func servicesDueTimersInDeadlineOrderWithTheirDeadlineAsNow() {
        let clock = ManualClock(startingAt: 1_000)
        let scheduler = NodeScheduler(clock: clock, queue: nil)
        let log = FiringLog()
        let late = scheduler.makeTimer { log.entries.append(("late", scheduler.now)) }
        let early = scheduler.makeTimer { log.entries.append(("early", scheduler.now)) }
        let middle = scheduler.makeTimer { log.entries.append(("middle", scheduler.now)) }
        let future = scheduler.makeTimer { log.entries.append(("future", scheduler.now)) }
        late.schedule(at: 1_300)
        early.start(after: 100)
        middle.schedule(at: 1_200)
        future.schedule(at: 5_000)
        #expect(scheduler.nextDeadline == 1_100)

        clock.advance(by: 250)
        scheduler.service()
        #expect(log.names == ["early", "middle"])
        #expect(log.times == [1_100, 1_200])
        #expect(!early.isRunning && !middle.isRunning && late.isRunning)
        #expect(scheduler.now == 1_250)

        clock.advance(by: 10_000)
        scheduler.service()
        #expect(log.names == ["early", "middle", "late", "future"])
        #expect(log.times == [1_100, 1_200, 1_300, 5_000])
        #expect(scheduler.nextDeadline == nil)
    }

    @Test func equalDeadlinesRunInTheOrderTheTimersWereFirstArmed() {
        let clock = ManualClock()
        let scheduler = NodeScheduler(clock: clock, queue: nil)
        let log = FiringLog()
        let timers = (0..<5).map { index in scheduler.makeTimer { log.entries.append(("\(index)", scheduler.now)) } }
        for index in [3, 1, 4, 0, 2] { timers[index].schedule(at: 50) }
        clock.advance(by: 50)
        scheduler.service()
        #expect(log.names == ["3", "1", "4", "0", "2"])
    }

    @Test func cancelledAndReplacedArmingsDoNotFire() {
        let clock = ManualClock()
        let scheduler = NodeScheduler(clock: clock, queue: nil)
        let log = FiringLog()
        let cancelled = scheduler.makeTimer { log.entries.append(("cancelled", scheduler.now)) }
        let disarmed = scheduler.makeTimer { log.entries.append(("disarmed", scheduler.now)) }
        let moved = scheduler.makeTimer { log.entries.append(("moved", scheduler.now)) }
        cancelled.start(after: 10)
        disarmed.start(after: 10)
        moved.start(after: 10)
        cancelled.cancel()
        disarmed.schedule(at: nil)
        moved.schedule(at: 500)
        #expect(!cancelled.isRunning)
        clock.advance(by: 100)
        scheduler.service()
        #expect(log.names.isEmpty)
        clock.advance(by: 400)
        scheduler.service()
        #expect(log.names == ["moved"])
        #expect(log.times == [500])
    }

    @Test func aPeriodicTimerRestartedFromItsActionKeepsItsCadence() {
        let clock = ManualClock(startingAt: 7)
        let scheduler = NodeScheduler(clock: clock, queue: nil)
        let log = FiringLog()
        var ticker: NodeTimer?
        ticker = scheduler.makeTimer {
            log.entries.append(("tick", scheduler.now))
            ticker?.start(after: 100)
        }
        ticker?.start(after: 100)
        // One late servicing a second on: ten ticks, each at its own deadline.
        clock.advance(by: 1_000)
        scheduler.service()
        let expected: [UInt64] = (1...10).map { (tick: UInt64) in 7 + 100 * tick }
        #expect(log.times == expected)
        // Serviced late again (350 ms): the cadence does not drift.
        clock.advance(by: 350)
        scheduler.service()
        #expect(log.times.suffix(3) == [1_107, 1_207, 1_307])
        #expect(ticker?.deadline == 1_407)
    }

    @Test func anActionMayArmAnotherTimerThatFallsDueInTheSameServicing() {
        let clock = ManualClock()
        let scheduler = NodeScheduler(clock: clock, queue: nil)
        let log = FiringLog()
        let second = scheduler.makeTimer { log.entries.append(("second", scheduler.now)) }
        let first = scheduler.makeTimer {
            log.entries.append(("first", scheduler.now))
            second.start(after: 30)
        }
        let third = scheduler.makeTimer { log.entries.append(("third", scheduler.now)) }
        first.schedule(at: 10)
        third.schedule(at: 60)
        clock.advance(by: 100)
        scheduler.service()
        #expect(log.names == ["first", "second", "third"])
        #expect(log.times == [10, 40, 60])
    }

    @Test func aTimerReArmedAtOrBeforeItsOwnDeadlineWaitsForTheNextServicing() {
        let clock = ManualClock(startingAt: 100)
        let scheduler = NodeScheduler(clock: clock, queue: nil)
        var runs = 0
        var stubborn: NodeTimer?
        // An engine computing absolute deadlines from the clock may point its timer at the past.
        stubborn = scheduler.makeTimer {
            runs += 1
            stubborn?.schedule(at: 90)
        }
        stubborn?.schedule(at: 100)
        scheduler.service()
        #expect(runs == 1)
        #expect(stubborn?.deadline == 90)
        scheduler.service()
        #expect(runs == 2)
    }

    @Test func severalClientsShareTheSchedulerAndCancelOnlyTheirOwnTimers() {
        let clock = ManualClock()
        let scheduler = NodeScheduler(clock: clock, queue: nil)
        let transport = FiringLog()
        let dataModel = FiringLog()
        let log = FiringLog()
        let retransmit = scheduler.makeTimer { log.entries.append(("transport", scheduler.now)) }
        retransmit.setOwner(transport)
        let transition = scheduler.makeTimer { log.entries.append(("level", scheduler.now)) }
        transition.setOwner(dataModel)
        let countdown = scheduler.makeTimer { log.entries.append(("identify", scheduler.now)) }
        countdown.setOwner(dataModel)
        let report = scheduler.makeTimer { log.entries.append(("report", scheduler.now)) }
        retransmit.schedule(at: 300)
        transition.schedule(at: 100)
        countdown.schedule(at: 200)
        report.schedule(at: 250)
        #expect(scheduler.nextDeadline(ownedBy: transport) == 300)
        #expect(scheduler.nextDeadline(ownedBy: dataModel) == 100)

        clock.advance(by: 150)
        scheduler.service()
        scheduler.cancelTimers(ownedBy: dataModel)
        #expect(scheduler.nextDeadline(ownedBy: dataModel) == nil)
        clock.advance(by: 1_000)
        scheduler.service()
        #expect(log.names == ["level", "report", "transport"])
        #expect(log.times == [100, 250, 300])
    }

    @Test func aReleasedTimerNeverFiresAndAStoppedSchedulerRunsNothing() {
        let clock = ManualClock()
        let scheduler = NodeScheduler(clock: clock, queue: nil)
        let log = FiringLog()
        var released: NodeTimer? = scheduler.makeTimer { log.entries.append(("released", scheduler.now)) }
        released?.start(after: 10)
        released = nil
        let kept = scheduler.makeTimer { log.entries.append(("kept", scheduler.now)) }
        kept.start(after: 20)
        clock.advance(by: 30)
        scheduler.service()
        #expect(log.names == ["kept"])

        kept.start(after: 10)
        scheduler.stop()
        #expect(!kept.isRunning)
        kept.start(after: 10)
        clock.advance(by: 100)
        scheduler.service()
        #expect(log.names == ["kept"])
    }

    @Test func onAQueueTheDispatchTimerFiresTheEarliestDeadlineThere() async {
        let queue = DispatchQueue(label: "node-scheduler-test")
        let scheduler = NodeScheduler(clock: SystemClock(), queue: queue)
        let shared = QueueShared()
        let keeper = TimerKeeper()
        // Hang guard only: the timers are due within milliseconds.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                let later = scheduler.makeTimer {
                    dispatchPrecondition(condition: .onQueue(queue))
                    shared.fired.withLock { $0.append("later") }
                    continuation.resume()
                }
                let sooner = scheduler.makeTimer {
                    dispatchPrecondition(condition: .onQueue(queue))
                    shared.fired.withLock { $0.append("sooner") }
                }
                let cancelled = scheduler.makeTimer { shared.fired.withLock { $0.append("cancelled") } }
                later.start(after: 40)
                sooner.start(after: 5)
                cancelled.start(after: 1)
                cancelled.cancel()
                keeper.timers = [later, sooner, cancelled]
            }
        }
        #expect(shared.fired.withLock { $0 } == ["sooner", "later"])
        queue.sync {
            scheduler.stop()
            keeper.timers = []
        }
    }
}
