import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import Testing

/// The water valve (ValveBehaviour): timed opening, levels, closing by itself and by Close, its events.
@Suite("Water valve")
struct ValveBehaviourTests {
    typealias Valve = AttributeID.ValveConfigurationAndControl

    @Test("Open for 3 s at 50 %: transitioning a second, open with the countdown, closed by itself at 0; events")
    func timedOpen() throws {
        let bench = try Bench(try DevicePreset(cliName: "water-valve"))
        let first = (bench.model.eventRecords(from: 0).last?.number ?? 0) + 1
        #expect(bench.value(1, .valveConfigurationAndControl, Valve.currentState) == .unsigned(0))
        try bench.invoke(
            1, .valveConfigurationAndControl, .ValveConfigurationAndControl.open, [0: .unsigned(3), 1: .unsigned(50)])
        #expect(bench.value(1, .valveConfigurationAndControl, Valve.currentState) == .unsigned(2))
        #expect(bench.value(1, .valveConfigurationAndControl, Valve.targetState) == .unsigned(1))
        #expect(bench.value(1, .valveConfigurationAndControl, Valve.targetLevel) == .unsigned(50))
        bench.advance(1000)
        #expect(bench.value(1, .valveConfigurationAndControl, Valve.currentState) == .unsigned(1))
        #expect(bench.value(1, .valveConfigurationAndControl, Valve.currentLevel) == .unsigned(50))
        #expect(bench.value(1, .valveConfigurationAndControl, Valve.targetState) == .null)
        #expect(bench.value(1, .valveConfigurationAndControl, Valve.openDuration) == .unsigned(3))
        bench.advance(1000)
        #expect(bench.value(1, .valveConfigurationAndControl, Valve.remainingDuration) == .unsigned(2))
        bench.advance(3000)  // 0 reached: closing, then closed a second later
        #expect(bench.value(1, .valveConfigurationAndControl, Valve.currentState) == .unsigned(0))
        #expect(bench.value(1, .valveConfigurationAndControl, Valve.currentLevel) == .unsigned(0))
        #expect(bench.value(1, .valveConfigurationAndControl, Valve.remainingDuration) == .null)
        let states = bench.model.eventRecords(from: first).filter { $0.path.cluster == .valveConfigurationAndControl }
            .map { record -> UInt64? in
                guard case .structure(let fields) = record.data, case .unsigned(let state)? = fields.first?.value else {
                    return nil
                }
                return state
            }
        #expect(states == [1, 0])
    }

    @Test("Open without a duration stays open until Close; a zero duration or a level over 100 is refused")
    func untilClosed() throws {
        let bench = try Bench(try DevicePreset(cliName: "water-valve"))
        #expect(
            bench.status(1, .valveConfigurationAndControl, .ValveConfigurationAndControl.open, [0: .unsigned(0)])
                == .constraintError)
        #expect(
            bench.status(1, .valveConfigurationAndControl, .ValveConfigurationAndControl.open, [1: .unsigned(101)])
                == .constraintError)
        try bench.invoke(1, .valveConfigurationAndControl, .ValveConfigurationAndControl.open)
        bench.advance(60_000)
        #expect(bench.value(1, .valveConfigurationAndControl, Valve.currentState) == .unsigned(1))
        #expect(bench.value(1, .valveConfigurationAndControl, Valve.currentLevel) == .unsigned(100))
        #expect(bench.value(1, .valveConfigurationAndControl, Valve.remainingDuration) == .null)
        try bench.invoke(1, .valveConfigurationAndControl, .ValveConfigurationAndControl.close)
        bench.advance(1000)
        #expect(bench.value(1, .valveConfigurationAndControl, Valve.currentState) == .unsigned(0))
    }

    @Test("an irrigation system's valve is its part on endpoint 2, and opens there")
    func irrigation() throws {
        let bench = try Bench(try DevicePreset(cliName: "irrigation-system"))
        try bench.invoke(2, .valveConfigurationAndControl, .ValveConfigurationAndControl.open, [0: .unsigned(10)])
        bench.advance(1000)
        #expect(bench.value(2, .valveConfigurationAndControl, Valve.currentState) == .unsigned(1))
    }
}
