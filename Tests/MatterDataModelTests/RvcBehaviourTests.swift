import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import Testing

/// The robotic vacuum (RvcBehaviour): run modes drive its operational state through a run, the way home and
/// the dock.
@Suite("Robotic vacuum")
struct RvcBehaviourTests {
    typealias State = AttributeID.RvcOperationalState

    static func errorState(_ response: CommandResponse?) -> TLVValue? {
        guard case .structure(let fields)? = response?.fields, case .structure(let inner)? = fields.first?.value else {
            return nil
        }
        return inner.first?.value
    }

    @Test("Cleaning runs 60 s, pauses and resumes, then records OperationCompletion, goes home, docks, back to Idle")
    func run() throws {
        let bench = try Bench(try DevicePreset(cliName: "robotic-vacuum-cleaner"))
        let docked = TLVValue.unsigned(0x42)
        #expect(bench.value(1, .rvcOperationalState, State.operationalState) == docked)
        // Not a mode of the robot: UnsupportedMode, nothing moves.
        let refused = try bench.invoke(1, .rvcRunMode, .RvcRunMode.changeToMode, [0: .unsigned(9)])
        guard case .structure(let refusal)? = refused?.fields else {
            Issue.record("no ChangeToModeResponse")
            return
        }
        #expect(refusal.first?.value == .unsigned(1))
        #expect(bench.value(1, .rvcOperationalState, State.operationalState) == docked)
        // Pause while docked: CommandInvalidInState.
        #expect(Self.errorState(try bench.invoke(1, .rvcOperationalState, .RvcOperationalState.pause)) == .unsigned(3))

        _ = try bench.invoke(1, .rvcRunMode, .RvcRunMode.changeToMode, [0: .unsigned(1)])
        #expect(bench.value(1, .rvcOperationalState, State.operationalState) == .unsigned(1))
        #expect(bench.value(1, .rvcOperationalState, State.countdownTime) == .unsigned(60))
        bench.advance(10_000)
        #expect(bench.value(1, .rvcOperationalState, State.countdownTime) == .unsigned(50))
        #expect(Self.errorState(try bench.invoke(1, .rvcOperationalState, .RvcOperationalState.pause)) == .unsigned(0))
        bench.advance(5_000)
        #expect(bench.value(1, .rvcOperationalState, State.operationalState) == .unsigned(2))
        #expect(bench.value(1, .rvcOperationalState, State.countdownTime) == .unsigned(50))
        #expect(Self.errorState(try bench.invoke(1, .rvcOperationalState, .RvcOperationalState.resume)) == .unsigned(0))
        bench.advance(50_000)
        // The run ended: OperationCompletion (50 + 10 s running, 5 s paused), on the way home, Idle.
        let completion = bench.model.eventRecords(from: 0).last {
            $0.path.cluster == .rvcOperationalState && $0.path.event == .RvcOperationalState.operationCompletion
        }
        #expect(
            completion?.data
                == .structure([
                    TLVElement(tag: .context(0), .unsigned(0)), TLVElement(tag: .context(1), .unsigned(60)),
                    TLVElement(tag: .context(2), .unsigned(5)),
                ]))
        #expect(bench.value(1, .rvcOperationalState, State.operationalState) == .unsigned(0x40))
        #expect(bench.value(1, .rvcRunMode, .RvcRunMode.currentMode) == .unsigned(0))
        bench.advance(5_000)
        #expect(bench.value(1, .rvcOperationalState, State.operationalState) == .unsigned(0x41))
        bench.advance(5_000)
        #expect(bench.value(1, .rvcOperationalState, State.operationalState) == docked)
        #expect(bench.model.nextTimerDeadline == nil)  // docked: at rest
    }

    @Test("GoHome ends a run early; Idle while running sends the robot home too")
    func home() throws {
        let bench = try Bench(try DevicePreset(cliName: "robotic-vacuum-cleaner"))
        _ = try bench.invoke(1, .rvcRunMode, .RvcRunMode.changeToMode, [0: .unsigned(2)])
        bench.advance(3_000)
        #expect(Self.errorState(try bench.invoke(1, .rvcOperationalState, .RvcOperationalState.goHome)) == .unsigned(0))
        #expect(bench.value(1, .rvcOperationalState, State.operationalState) == .unsigned(0x40))
        #expect(bench.value(1, .rvcRunMode, .RvcRunMode.currentMode) == .unsigned(0))
        bench.advance(10_000)
        #expect(bench.value(1, .rvcOperationalState, State.operationalState) == .unsigned(0x42))

        _ = try bench.invoke(1, .rvcRunMode, .RvcRunMode.changeToMode, [0: .unsigned(1)])
        bench.advance(2_000)
        _ = try bench.invoke(1, .rvcRunMode, .RvcRunMode.changeToMode, [0: .unsigned(0)])
        #expect(bench.value(1, .rvcOperationalState, State.operationalState) == .unsigned(0x40))
    }
}
