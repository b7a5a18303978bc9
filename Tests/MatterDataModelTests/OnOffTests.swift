import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import MatterTestSupport
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

    /// OnWithTimedOff with fields (AcceptOnlyWhenOn, OnTime, OffWaitTime) on `bench`'s light.
    static func timed(_ bench: Bench, _ control: UInt64, _ on: UInt64, _ wait: UInt64) throws(StatusIB) {
        _ = try bench.invoke(
            1, .onOff, C.onWithTimedOff, [0: .unsigned(control), 1: .unsigned(on), 2: .unsigned(wait)])
    }

    /// (OnOff, OnTime, OffWaitTime) as the light holds them.
    static func state(_ bench: Bench) -> (TLVValue?, TLVValue?, TLVValue?) {
        (bench.value(1, .onOff, A.onOff), bench.value(1, .onOff, A.onTime), bench.value(1, .onOff, A.offWaitTime))
    }

    @Test("OnWithTimedOff: AcceptOnlyWhenOn, OnTime = max, OffWaitTime set, countdown in tenths")
    func onWithTimedOffCountsDownInTenths() throws {
        let bench = try Bench(.onOffLight)
        // AcceptOnlyWhenOn while off: ignored.
        try Self.timed(bench, 1, 20, 30)
        #expect(Self.state(bench) == (.bool(false), .unsigned(0), .unsigned(0)))

        try Self.timed(bench, 0, 20, 30)
        #expect(Self.state(bench) == (.bool(true), .unsigned(20), .unsigned(30)))
        bench.advance(1000)
        #expect(Self.state(bench) == (.bool(true), .unsigned(10), .unsigned(30)))
        // A shorter OnTime does not shorten the running one (max); OffWaitTime takes the new field.
        try Self.timed(bench, 0, 5, 40)
        #expect(Self.state(bench) == (.bool(true), .unsigned(10), .unsigned(40)))
        // AcceptOnlyWhenOn while on: accepted (a longer OnTime extends it).
        try Self.timed(bench, 1, 12, 40)
        #expect(Self.state(bench) == (.bool(true), .unsigned(12), .unsigned(40)))
        bench.advance(1100)
        #expect(Self.state(bench) == (.bool(true), .unsigned(1), .unsigned(40)))
        // OnTime runs out: OffWaitTime 0 and off together (no delayed-off state).
        bench.advance(100)
        #expect(Self.state(bench) == (.bool(false), .unsigned(0), .unsigned(0)))
        #expect(bench.nextTimerDeadline == nil)
        // So the next OnWithTimedOff turns the light on (it is not swallowed).
        try Self.timed(bench, 0, 30, 20)
        #expect(Self.state(bench) == (.bool(true), .unsigned(30), .unsigned(20)))
        // Countdown steps are quiet: OnTime was reported when set (20, 12, 30) and when it reached 0,
        // not per tick.
        #expect(bench.observer.count(.onOff, A.onTime) == 4)

        #expect(
            bench.status(1, .onOff, C.onWithTimedOff, [0: .unsigned(0), 1: .unsigned(0xFFFF), 2: .unsigned(0)])
                == .constraintError)
        #expect(bench.status(1, .onOff, C.onWithTimedOff, [0: .unsigned(0), 1: .unsigned(5)]) == .invalidCommand)
        #expect(
            bench.status(1, .onOff, C.onWithTimedOff, [0: .unsigned(0), 1: .unsigned(0x1_0000), 2: .unsigned(0)])
                == .invalidCommand)
    }

    @Test("an Off during a timed on leaves the delayed-off state; OnWithTimedOff there only shortens OffWaitTime")
    func delayedOff() throws {
        for off in [C.off, C.toggle] {
            let bench = try Bench(.onOffLight)
            try Self.timed(bench, 0, 50, 30)
            try bench.invoke(1, .onOff, off)
            #expect(Self.state(bench) == (.bool(false), .unsigned(0), .unsigned(30)))
            bench.advance(1000)
            #expect(Self.state(bench) == (.bool(false), .unsigned(0), .unsigned(20)))
            // In the delayed-off state OnWithTimedOff keeps the light off and takes the smaller wait.
            try Self.timed(bench, 0, 50, 25)
            #expect(Self.state(bench) == (.bool(false), .unsigned(0), .unsigned(20)))
            try Self.timed(bench, 0, 50, 5)
            #expect(Self.state(bench) == (.bool(false), .unsigned(0), .unsigned(5)))
            bench.advance(500)
            #expect(Self.state(bench) == (.bool(false), .unsigned(0), .unsigned(0)))
            #expect(bench.nextTimerDeadline == nil)
            // Out of it, OnWithTimedOff turns on again.
            try Self.timed(bench, 0, 50, 5)
            #expect(Self.state(bench) == (.bool(true), .unsigned(50), .unsigned(5)))
        }
    }

    @Test("On clears OffWaitTime only when OnTime is 0; Off clears OnTime; On ends the delayed-off state")
    func onAndOffAgainstTheTimers() throws {
        let bench = try Bench(.onOffLight)
        try Self.timed(bench, 0, 50, 30)
        try bench.invoke(1, .onOff, C.on)  // OnTime 50: OffWaitTime stays
        #expect(Self.state(bench) == (.bool(true), .unsigned(50), .unsigned(30)))
        try bench.invoke(1, .onOff, C.off)
        #expect(Self.state(bench) == (.bool(false), .unsigned(0), .unsigned(30)))
        try bench.invoke(1, .onOff, C.on)  // OnTime 0: OffWaitTime cleared, the light simply on
        #expect(Self.state(bench) == (.bool(true), .unsigned(0), .unsigned(0)))
        #expect(bench.nextTimerDeadline == nil)
        bench.advance(5000)
        #expect(Self.state(bench) == (.bool(true), .unsigned(0), .unsigned(0)))
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
