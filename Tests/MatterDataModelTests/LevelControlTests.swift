import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import MatterTestSupport
import Testing

@Suite("Level Control")
struct LevelControlTests {
    typealias A = AttributeID.LevelControl
    typealias C = CommandID.LevelControl

    /// A dimmable light that is on, at `level`.
    func lightOn(at level: UInt64) throws -> Bench {
        let bench = try Bench(.dimmableLight)
        try bench.invoke(1, .onOff, .OnOff.on)
        try bench.invoke(1, .levelControl, C.moveToLevel, [0: .unsigned(level), 1: .unsigned(0)])
        bench.observer.reset()
        return bench
    }

    @Test func defaultsOfALight() throws {
        let bench = try Bench(.dimmableLight)
        #expect(bench.value(1, .levelControl, A.currentLevel) == .unsigned(254))
        #expect(bench.value(1, .levelControl, A.minLevel) == .unsigned(1))
        #expect(bench.value(1, .levelControl, A.maxLevel) == .unsigned(254))
        #expect(bench.value(1, .levelControl, A.remainingTime) == .unsigned(0))
        #expect(bench.value(1, .levelControl, A.onLevel) == .null)
        #expect(bench.value(1, .levelControl, A.options) == .unsigned(0))
        #expect(bench.value(1, .levelControl, A.startUpCurrentLevel) == .null)
        #expect(bench.model.acceptedCommands(endpoint: EndpointID(1), cluster: .levelControl).count == 8)
    }

    @Test func moveToLevelRunsThroughIntermediateLevels() throws {
        let bench = try lightOn(at: 1)
        try bench.invoke(1, .levelControl, C.moveToLevel, [0: .unsigned(201), 1: .unsigned(10)])
        #expect(bench.currentLevel == 1)
        #expect(bench.value(1, .levelControl, A.remainingTime) == .unsigned(10))
        var levels: [UInt8] = []
        var remaining: [TLVValue] = []
        for _ in 0..<10 {
            bench.advance(100)
            levels.append(bench.currentLevel ?? 0)
            remaining.append(bench.value(1, .levelControl, A.remainingTime) ?? .null)
        }
        #expect(levels == [21, 41, 61, 81, 101, 121, 141, 161, 181, 201])
        #expect(remaining == (0..<10).reversed().map { .unsigned(UInt64($0)) })
        #expect(bench.level?.isTransitioning == false)
        // Steps are quiet; the end is reported once (plus RemainingTime going to 0 is not, as it never
        // was reported above 10).
        #expect(bench.observer.count(.levelControl, A.currentLevel) == 1)
        #expect(bench.log.last == "level 1: 201")
        // The data version counted every step.
        bench.advance(1000)
        #expect(bench.currentLevel == 201)
    }

    @Test func aDownwardTransitionLandsOnItsTarget() throws {
        let bench = try lightOn(at: 200)
        try bench.invoke(1, .levelControl, C.moveToLevel, [0: .unsigned(3), 1: .unsigned(7)])
        bench.advance(300)
        #expect(bench.currentLevel == UInt8(200 - 197 * 3 / 7))
        bench.advance(400)
        #expect(bench.currentLevel == 3)
        // A null transition time uses OnOffTransitionTime (0: at once).
        try bench.invoke(1, .levelControl, C.moveToLevel, [0: .unsigned(90), 1: .null])
        #expect(bench.currentLevel == 90)
        #expect(bench.write(1, .levelControl, A.onOffTransitionTime, .unsigned(5)) == .success)
        try bench.invoke(1, .levelControl, C.moveToLevel, [0: .unsigned(100), 1: .null])
        #expect(bench.currentLevel == 90)
        bench.advance(500)
        #expect(bench.currentLevel == 100)
    }

    @Test func levelsAreClampedAndValidated() throws {
        let bench = try lightOn(at: 100)
        try bench.invoke(1, .levelControl, C.moveToLevel, [0: .unsigned(0), 1: .unsigned(0)])
        #expect(bench.currentLevel == 1)
        #expect(
            bench.status(1, .levelControl, C.moveToLevel, [0: .unsigned(255), 1: .unsigned(0)]) == .constraintError)
        #expect(bench.status(1, .levelControl, C.moveToLevel, [0: .unsigned(300), 1: .unsigned(0)]) == .invalidCommand)
        #expect(bench.status(1, .levelControl, C.moveToLevel, [0: .utf8("max"), 1: .unsigned(0)]) == .invalidCommand)
        #expect(bench.status(1, .levelControl, C.moveToLevel, [1: .unsigned(0)]) == .invalidCommand)
        #expect(bench.status(1, .levelControl, C.moveToLevel, [0: .unsigned(5)]) == .invalidCommand)
        #expect(bench.status(1, .levelControl, C.move, [0: .unsigned(0), 1: .unsigned(0)]) == .invalidCommand)
        #expect(bench.status(1, .levelControl, C.move, [0: .unsigned(2), 1: .unsigned(10)]) == .constraintError)
        #expect(
            bench.status(1, .levelControl, C.step, [0: .unsigned(0), 1: .unsigned(0), 2: .unsigned(0)])
                == .invalidCommand)
        #expect(
            bench.status(1, .levelControl, C.step, [0: .unsigned(7), 1: .unsigned(5), 2: .unsigned(0)])
                == .constraintError)
        #expect(bench.currentLevel == 1)
    }

    @Test func moveAtARateAndStop() throws {
        let bench = try lightOn(at: 100)
        // Up at 50 units/s: 154 units take 3.08 s.
        try bench.invoke(1, .levelControl, C.move, [0: .unsigned(0), 1: .unsigned(50)])
        #expect(bench.value(1, .levelControl, A.remainingTime) == .unsigned(31))
        bench.advance(1000)
        #expect(bench.currentLevel == 150)
        try bench.invoke(1, .levelControl, C.stop, [0: .unsigned(0), 1: .unsigned(0)])
        #expect(bench.value(1, .levelControl, A.remainingTime) == .unsigned(0))
        bench.advance(3000)
        #expect(bench.currentLevel == 150)
        // Down without a rate or DefaultMoveRate: at once.
        try bench.invoke(1, .levelControl, C.move, [0: .unsigned(1), 1: .null])
        #expect(bench.currentLevel == 1)
        // With a DefaultMoveRate.
        #expect(bench.write(1, .levelControl, A.defaultMoveRate, .unsigned(0)) == .constraintError)
        #expect(bench.write(1, .levelControl, A.defaultMoveRate, .unsigned(100)) == .success)
        try bench.invoke(1, .levelControl, C.move, [0: .unsigned(0), 1: .null])
        bench.advance(1000)
        #expect(bench.currentLevel == 101)
        bench.advance(2000)
        #expect(bench.currentLevel == 254)
    }

    @Test func stepUpAndDownWithinTheBounds() throws {
        let bench = try lightOn(at: 100)
        try bench.invoke(1, .levelControl, C.step, [0: .unsigned(0), 1: .unsigned(20), 2: .null])
        #expect(bench.currentLevel == 120)
        try bench.invoke(1, .levelControl, C.step, [0: .unsigned(1), 1: .unsigned(200), 2: .unsigned(0)])
        #expect(bench.currentLevel == 1)
        try bench.invoke(1, .levelControl, C.step, [0: .unsigned(0), 1: .unsigned(255), 2: .unsigned(20)])
        bench.advance(1000)
        #expect(bench.currentLevel == UInt8(1 + 253 / 2))
        bench.advance(1000)
        #expect(bench.currentLevel == 254)
    }

    @Test func executeIfOffGovernsThePlainCommands() throws {
        let bench = try lightOn(at: 100)
        try bench.invoke(1, .onOff, .OnOff.off)
        // Off, Options 0: accepted, nothing happens.
        #expect(bench.status(1, .levelControl, C.moveToLevel, [0: .unsigned(50), 1: .unsigned(0)]) == .success)
        #expect(bench.currentLevel == 100)
        try bench.invoke(1, .levelControl, C.step, [0: .unsigned(0), 1: .unsigned(10), 2: .null])
        #expect(bench.currentLevel == 100)
        // The command's override wins where its mask has the bit.
        try bench.invoke(
            1, .levelControl, C.moveToLevel, [0: .unsigned(50), 1: .unsigned(0), 2: .unsigned(1), 3: .unsigned(1)])
        #expect(bench.currentLevel == 50)
        // Options.ExecuteIfOff set: runs, unless the command masks it off.
        #expect(bench.write(1, .levelControl, A.options, .unsigned(1)) == .success)
        try bench.invoke(1, .levelControl, C.moveToLevel, [0: .unsigned(60), 1: .unsigned(0)])
        #expect(bench.currentLevel == 60)
        try bench.invoke(
            1, .levelControl, C.moveToLevel, [0: .unsigned(70), 1: .unsigned(0), 2: .unsigned(1), 3: .unsigned(0)])
        #expect(bench.currentLevel == 60)
        #expect(bench.onOff?.isOn == false)
        #expect(bench.write(1, .levelControl, A.options, .bool(true)) == .invalidDataType)
    }

    @Test func withOnOffCommandsSwitchTheLight() throws {
        let bench = try lightOn(at: 100)
        try bench.invoke(1, .onOff, .OnOff.off)
        try bench.invoke(1, .levelControl, C.moveToLevelWithOnOff, [0: .unsigned(80), 1: .unsigned(0)])
        #expect(bench.onOff?.isOn == true)
        #expect(bench.currentLevel == 80)
        // Down to MinLevel over a transition: off at the end, not before.
        try bench.invoke(1, .levelControl, C.moveToLevelWithOnOff, [0: .unsigned(1), 1: .unsigned(5)])
        bench.advance(400)
        #expect(bench.onOff?.isOn == true)
        bench.advance(100)
        #expect(bench.currentLevel == 1)
        #expect(bench.onOff?.isOn == false)
        // MoveWithOnOff up turns on first.
        try bench.invoke(1, .levelControl, C.moveWithOnOff, [0: .unsigned(0), 1: .unsigned(200)])
        #expect(bench.onOff?.isOn == true)
        bench.advance(100)
        #expect(bench.currentLevel == 21)
        try bench.invoke(1, .levelControl, C.stopWithOnOff)
        // StepWithOnOff down to the minimum turns off.
        try bench.invoke(1, .levelControl, C.stepWithOnOff, [0: .unsigned(1), 1: .unsigned(254), 2: .null])
        #expect(bench.currentLevel == 1)
        #expect(bench.onOff?.isOn == false)
        #expect(bench.log.suffix(2) == ["level 1: 1", "on-off 1 → off"])
    }

    @Test func onAndOffCommandsMoveTheLevel() throws {
        let bench = try lightOn(at: 100)
        // OnLevel: On goes there.
        #expect(bench.write(1, .levelControl, A.onLevel, .unsigned(0)) == .constraintError)
        #expect(bench.write(1, .levelControl, A.onLevel, .unsigned(255)) == .constraintError)
        #expect(bench.write(1, .levelControl, A.onLevel, .unsigned(40)) == .success)
        try bench.invoke(1, .onOff, .OnOff.off)
        #expect(bench.currentLevel == 1)
        try bench.invoke(1, .onOff, .OnOff.on)
        #expect(bench.currentLevel == 40)
        // Without OnLevel but with a transition time: Off fades to MinLevel, then the level comes back
        // for the next On, which fades up from MinLevel.
        #expect(bench.write(1, .levelControl, A.onLevel, .null) == .success)
        #expect(bench.write(1, .levelControl, A.onOffTransitionTime, .unsigned(10)) == .success)
        try bench.invoke(1, .onOff, .OnOff.off)
        #expect(bench.onOff?.isOn == false)
        bench.advance(500)
        #expect(bench.currentLevel == UInt8(40 - 39 / 2))
        bench.advance(500)
        #expect(bench.currentLevel == 40)
        try bench.invoke(1, .onOff, .OnOff.on)
        #expect(bench.currentLevel == 1)
        bench.advance(1000)
        #expect(bench.currentLevel == 40)
    }

    @Test func startUpCurrentLevelAndThePersistedLevel() throws {
        let bench = try lightOn(at: 77)
        var device = try bench.reboot()
        #expect(device.currentLevel == 77)
        #expect(device.write(1, .levelControl, A.startUpCurrentLevel, .unsigned(0)) == .success)
        device = try device.reboot()
        #expect(device.currentLevel == 1)
        #expect(device.write(1, .levelControl, A.startUpCurrentLevel, .unsigned(200)) == .success)
        device = try device.reboot()
        #expect(device.currentLevel == 200)
        #expect(device.value(1, .levelControl, A.startUpCurrentLevel) == .unsigned(200))
        #expect(device.write(1, .levelControl, A.startUpCurrentLevel, .utf8("200")) == .invalidDataType)
        #expect(device.write(1, .levelControl, A.startUpCurrentLevel, .null) == .success)
        try device.invoke(1, .onOff, .OnOff.on)
        try device.invoke(1, .levelControl, C.moveToLevel, [0: .unsigned(33), 1: .unsigned(0)])
        device = try device.reboot()
        #expect(device.currentLevel == 33)
    }
}
