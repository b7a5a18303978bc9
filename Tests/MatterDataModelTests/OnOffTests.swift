import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import Testing

@Suite("On/Off")
struct OnOffTests {
    typealias A = AttributeID.OnOff
    typealias C = CommandID.OnOff

    @Test func onOffToggleAndTheLightingAttributes() throws {
        let bench = try Bench(.onOffLight)
        #expect(bench.value(1, .onOff, A.onOff) == .bool(false))
        #expect(bench.value(1, .onOff, A.globalSceneControl) == .bool(true))
        #expect(bench.value(1, .onOff, A.startUpOnOff) == .null)
        try bench.invoke(1, .onOff, C.on)
        #expect(bench.value(1, .onOff, A.onOff) == .bool(true))
        try bench.invoke(1, .onOff, C.toggle)
        #expect(bench.value(1, .onOff, A.onOff) == .bool(false))
        try bench.invoke(1, .onOff, C.toggle)
        #expect(bench.value(1, .onOff, A.onOff) == .bool(true))
        // Off clears OnTime; On with OnTime 0 clears OffWaitTime.
        #expect(bench.write(1, .onOff, A.onTime, .unsigned(30)) == .success)
        #expect(bench.write(1, .onOff, A.offWaitTime, .unsigned(40)) == .success)
        try bench.invoke(1, .onOff, C.off)
        #expect(bench.value(1, .onOff, A.onTime) == .unsigned(0))
        #expect(bench.value(1, .onOff, A.offWaitTime) == .unsigned(40))
        try bench.invoke(1, .onOff, C.on)
        #expect(bench.value(1, .onOff, A.offWaitTime) == .unsigned(0))
    }

    @Test func offWithEffectAndOnWithRecallGlobalScene() throws {
        let bench = try Bench(.onOffLight)
        try bench.invoke(1, .onOff, C.on)
        #expect(bench.write(1, .onOff, A.onTime, .unsigned(50)) == .success)
        try bench.invoke(1, .onOff, C.offWithEffect, [0: .unsigned(0), 1: .unsigned(1)])
        #expect(bench.value(1, .onOff, A.onOff) == .bool(false))
        #expect(bench.value(1, .onOff, A.globalSceneControl) == .bool(false))
        #expect(bench.value(1, .onOff, A.onTime) == .unsigned(0))
        #expect(bench.log.contains("on-off 1: off with effect delayedAllOff variant 1"))
        // Dying light, its only variant.
        try bench.invoke(1, .onOff, C.on)
        try bench.invoke(1, .onOff, C.offWithEffect, [0: .unsigned(1), 1: .unsigned(0)])
        #expect(bench.value(1, .onOff, A.onOff) == .bool(false))
        // On with recall: back on, GlobalSceneControl true.
        try bench.invoke(1, .onOff, C.offWithEffect, [0: .unsigned(0), 1: .unsigned(0)])
        try bench.invoke(1, .onOff, C.onWithRecallGlobalScene)
        #expect(bench.value(1, .onOff, A.onOff) == .bool(true))
        #expect(bench.value(1, .onOff, A.globalSceneControl) == .bool(true))
        // A second recall while GlobalSceneControl is true does nothing.
        try bench.invoke(1, .onOff, C.off)
        try bench.invoke(1, .onOff, C.onWithRecallGlobalScene)
        #expect(bench.value(1, .onOff, A.onOff) == .bool(false))
        // Bad fields.
        #expect(bench.status(1, .onOff, C.offWithEffect, [0: .unsigned(2), 1: .unsigned(0)]) == .constraintError)
        #expect(bench.status(1, .onOff, C.offWithEffect, [0: .unsigned(0)]) == .invalidCommand)
        #expect(bench.status(1, .onOff, C.offWithEffect, [0: .utf8("x"), 1: .unsigned(0)]) == .invalidCommand)
    }

    @Test func onWithTimedOffCountsDownInTenths() throws {
        let bench = try Bench(.onOffLight)
        let timed = { (control: UInt64, on: UInt64, wait: UInt64) throws(StatusIB) -> Void in
            _ = try bench.invoke(
                1, .onOff, C.onWithTimedOff, [0: .unsigned(control), 1: .unsigned(on), 2: .unsigned(wait)])
        }
        // AcceptOnlyWhenOn while off: ignored.
        try timed(1, 20, 30)
        #expect(bench.value(1, .onOff, A.onOff) == .bool(false))
        #expect(bench.value(1, .onOff, A.onTime) == .unsigned(0))

        try timed(0, 20, 30)
        #expect(bench.value(1, .onOff, A.onOff) == .bool(true))
        #expect(bench.value(1, .onOff, A.onTime) == .unsigned(20))
        #expect(bench.value(1, .onOff, A.offWaitTime) == .unsigned(30))
        bench.advance(1000)
        #expect(bench.value(1, .onOff, A.onTime) == .unsigned(10))
        #expect(bench.value(1, .onOff, A.onOff) == .bool(true))
        // A shorter OnTime does not shorten the running one (max).
        try timed(0, 5, 30)
        #expect(bench.value(1, .onOff, A.onTime) == .unsigned(10))
        bench.advance(900)
        #expect(bench.value(1, .onOff, A.onTime) == .unsigned(1))
        #expect(bench.value(1, .onOff, A.onOff) == .bool(true))
        bench.advance(100)
        #expect(bench.value(1, .onOff, A.onTime) == .unsigned(0))
        #expect(bench.value(1, .onOff, A.onOff) == .bool(false))
        // Delayed off: OffWaitTime counts down while off...
        bench.advance(1000)
        #expect(bench.value(1, .onOff, A.offWaitTime) == .unsigned(20))
        // ...and an OnWithTimedOff meanwhile only shortens it, keeping the light off.
        try timed(0, 50, 5)
        #expect(bench.value(1, .onOff, A.onOff) == .bool(false))
        #expect(bench.value(1, .onOff, A.offWaitTime) == .unsigned(5))
        bench.advance(500)
        #expect(bench.value(1, .onOff, A.offWaitTime) == .unsigned(0))
        // Now it turns on again.
        try timed(0, 50, 5)
        #expect(bench.value(1, .onOff, A.onOff) == .bool(true))
        #expect(bench.nextTimerDeadline != nil)
        // Countdown steps are quiet: OnTime was reported when set and when it reached 0, not per tick.
        #expect(bench.observer.count(.onOff, A.onTime) == 3)

        #expect(
            bench.status(1, .onOff, C.onWithTimedOff, [0: .unsigned(0), 1: .unsigned(0xFFFF), 2: .unsigned(0)])
                == .constraintError)
        #expect(bench.status(1, .onOff, C.onWithTimedOff, [0: .unsigned(0), 1: .unsigned(5)]) == .invalidCommand)
        #expect(
            bench.status(1, .onOff, C.onWithTimedOff, [0: .unsigned(0), 1: .unsigned(0x1_0000), 2: .unsigned(0)])
                == .invalidCommand)
    }

    @Test func startUpOnOffAppliesAtReboot() throws {
        let bench = try Bench(.onOffLight)
        try bench.invoke(1, .onOff, C.on)
        // null: the previous state survives.
        var device = try bench.reboot(.onOffLight)
        #expect(device.value(1, .onOff, A.onOff) == .bool(true))
        // Toggle: the opposite of the previous state, each boot.
        #expect(device.write(1, .onOff, A.startUpOnOff, .unsigned(2)) == .success)
        device = try device.reboot(.onOffLight)
        #expect(device.value(1, .onOff, A.onOff) == .bool(false))
        #expect(device.value(1, .onOff, A.startUpOnOff) == .unsigned(2))
        device = try device.reboot(.onOffLight)
        #expect(device.value(1, .onOff, A.onOff) == .bool(true))
        // Off, then On.
        #expect(device.write(1, .onOff, A.startUpOnOff, .unsigned(0)) == .success)
        device = try device.reboot(.onOffLight)
        #expect(device.value(1, .onOff, A.onOff) == .bool(false))
        #expect(device.write(1, .onOff, A.startUpOnOff, .unsigned(1)) == .success)
        device = try device.reboot(.onOffLight)
        #expect(device.value(1, .onOff, A.onOff) == .bool(true))
        // Back to null.
        #expect(device.write(1, .onOff, A.startUpOnOff, .null) == .success)
        try device.invoke(1, .onOff, C.off)
        device = try device.reboot(.onOffLight)
        #expect(device.value(1, .onOff, A.onOff) == .bool(false))
        // Invalid writes.
        #expect(device.write(1, .onOff, A.startUpOnOff, .unsigned(3)) == .constraintError)
        #expect(device.write(1, .onOff, A.startUpOnOff, .bool(true)) == .invalidDataType)
        #expect(device.write(1, .onOff, A.onTime, .signed(5)) == .invalidDataType)
        #expect(device.write(1, .onOff, A.onTime, .unsigned(70_000)) == .constraintError)
        #expect(device.write(1, .onOff, A.onOff, .bool(true)) == .unsupportedWrite)
    }

    @Test func aPlugHasTheLightingFeatureToo() throws {
        let bench = try Bench(.onOffPlug)
        #expect(bench.value(1, .onOff, .featureMap) == .unsigned(1))
        #expect(bench.model.acceptedCommands(endpoint: EndpointID(1), cluster: .onOff).count == 6)
        #expect(bench.value(1, .identify, .Identify.identifyType) == .unsigned(2))
    }
}

extension Bench {
    var nextTimerDeadline: UInt64? { model.nextTimerDeadline }
}
