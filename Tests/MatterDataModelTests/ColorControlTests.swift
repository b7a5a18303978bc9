import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import MatterTestSupport
import Testing

@Suite("Color Control")
struct ColorControlTests {
    typealias A = AttributeID.ColorControl
    typealias C = CommandID.ColorControl

    func lightOn(_ preset: DevicePreset = .colorTemperatureLight) throws -> Bench {
        let bench = try Bench(preset)
        try bench.invoke(1, .onOff, .OnOff.on)
        bench.observer.reset()
        return bench
    }

    var mireds: (Bench) -> UInt16? { { $0.color?.colorTemperatureMireds } }

    @Test func attributesOfAColorTemperatureLight() throws {
        let bench = try Bench(.colorTemperatureLight)
        #expect(bench.value(1, .colorControl, A.colorTemperatureMireds) == .unsigned(250))
        #expect(bench.value(1, .colorControl, A.colorMode) == .unsigned(2))
        #expect(bench.value(1, .colorControl, A.enhancedColorMode) == .unsigned(2))
        #expect(bench.value(1, .colorControl, A.colorCapabilities) == .unsigned(0x10))
        #expect(bench.value(1, .colorControl, .featureMap) == .unsigned(0x10))
        #expect(bench.value(1, .colorControl, A.colorTempPhysicalMinMireds) == .unsigned(153))
        #expect(bench.value(1, .colorControl, A.colorTempPhysicalMaxMireds) == .unsigned(500))
        #expect(bench.value(1, .colorControl, A.remainingTime) == .unsigned(0))
        #expect(bench.value(1, .colorControl, A.startUpColorTemperatureMireds) == .null)
        #expect(bench.value(1, .colorControl, A.numberOfPrimaries) == .unsigned(0))
        #expect(throws: StatusIB(.unsupportedAttribute)) { try bench.read(1, .colorControl, A.currentX) }
        #expect(
            bench.model.acceptedCommands(endpoint: EndpointID(1), cluster: .colorControl).map(\.id) == [
                C.moveToColorTemperature, C.stopMoveStep, C.moveColorTemperature, C.stepColorTemperature,
            ])
    }

    @Test func moveToColorTemperatureTransitionsAndClamps() throws {
        let bench = try lightOn()
        try bench.invoke(1, .colorControl, C.moveToColorTemperature, [0: .unsigned(450), 1: .unsigned(20)])
        #expect(bench.value(1, .colorControl, A.remainingTime) == .unsigned(20))
        bench.advance(500)
        #expect(mireds(bench) == UInt16(250 + 200 / 4))
        bench.advance(1000)
        #expect(mireds(bench) == 400)
        #expect(bench.value(1, .colorControl, A.remainingTime) == .unsigned(5))
        bench.advance(500)
        #expect(mireds(bench) == 450)
        #expect(bench.value(1, .colorControl, A.remainingTime) == .unsigned(0))
        // Reported at most once a second while moving (the first step, one a second later), then at
        // the end: 3 reports for 20 steps.
        #expect(bench.observer.count(.colorControl, A.colorTemperatureMireds) == 3)
        #expect(bench.log.last == "color-temperature 1: 450 mireds")
        // Beyond the physical range: clamped.
        try bench.invoke(1, .colorControl, C.moveToColorTemperature, [0: .unsigned(900), 1: .unsigned(0)])
        #expect(mireds(bench) == 500)
        try bench.invoke(1, .colorControl, C.moveToColorTemperature, [0: .unsigned(1), 1: .unsigned(0)])
        #expect(mireds(bench) == 153)
        #expect(
            bench.status(1, .colorControl, C.moveToColorTemperature, [0: .unsigned(300), 1: .unsigned(0xFFFF)])
                == .constraintError)
        #expect(bench.status(1, .colorControl, C.moveToColorTemperature, [0: .unsigned(300)]) == .invalidCommand)
    }

    @Test func moveStepAndStop() throws {
        let bench = try lightOn()
        let move = { (mode: UInt64, rate: UInt64) -> IMStatus in
            bench.status(
                1, .colorControl, C.moveColorTemperature,
                [0: .unsigned(mode), 1: .unsigned(rate), 2: .unsigned(0), 3: .unsigned(0)])
        }
        #expect(move(1, 100) == .success)
        bench.advance(1000)
        #expect(mireds(bench) == 350)
        #expect(move(0, 0) == .success)
        bench.advance(2000)
        #expect(mireds(bench) == 350)
        #expect(move(3, 1000) == .success)
        bench.advance(300)
        #expect(mireds(bench) == 153)
        #expect(move(1, 0) == .invalidCommand)
        #expect(move(2, 10) == .constraintError)
        // Bounded by the command's limits.
        #expect(
            bench.status(
                1, .colorControl, C.moveColorTemperature,
                [0: .unsigned(1), 1: .unsigned(1000), 2: .unsigned(0), 3: .unsigned(300)]) == .success)
        bench.advance(1000)
        #expect(mireds(bench) == 300)
        let step = { (mode: UInt64, size: UInt64, time: UInt64) -> IMStatus in
            bench.status(
                1, .colorControl, C.stepColorTemperature,
                [0: .unsigned(mode), 1: .unsigned(size), 2: .unsigned(time), 3: .unsigned(0), 4: .unsigned(0)])
        }
        #expect(step(3, 50, 0) == .success)
        #expect(mireds(bench) == 250)
        #expect(step(1, 1000, 10) == .success)
        bench.advance(500)
        #expect(mireds(bench) == 375)
        try bench.invoke(1, .colorControl, C.stopMoveStep, [0: .unsigned(0), 1: .unsigned(0)])
        bench.advance(1000)
        #expect(mireds(bench) == 375)
        #expect(bench.value(1, .colorControl, A.remainingTime) == .unsigned(0))
        #expect(step(1, 0, 0) == .invalidCommand)
        #expect(step(0, 10, 0) == .constraintError)
    }

    @Test func executeIfOffAsInLevelControl() throws {
        let bench = try lightOn()
        try bench.invoke(1, .onOff, .OnOff.off)
        try bench.invoke(1, .colorControl, C.moveToColorTemperature, [0: .unsigned(400), 1: .unsigned(0)])
        #expect(mireds(bench) == 250)
        try bench.invoke(
            1, .colorControl, C.moveToColorTemperature,
            [0: .unsigned(400), 1: .unsigned(0), 2: .unsigned(1), 3: .unsigned(1)])
        #expect(mireds(bench) == 400)
        #expect(bench.write(1, .colorControl, A.options, .unsigned(1)) == .success)
        try bench.invoke(1, .colorControl, C.moveToColorTemperature, [0: .unsigned(300), 1: .unsigned(0)])
        #expect(mireds(bench) == 300)
    }

    @Test func startUpColorTemperatureAtReboot() throws {
        let bench = try lightOn()
        try bench.invoke(1, .colorControl, C.moveToColorTemperature, [0: .unsigned(333), 1: .unsigned(0)])
        var device = try bench.reboot(.colorTemperatureLight)
        #expect(device.color?.colorTemperatureMireds == 333)
        #expect(device.write(1, .colorControl, A.startUpColorTemperatureMireds, .unsigned(0)) == .constraintError)
        #expect(device.write(1, .colorControl, A.startUpColorTemperatureMireds, .unsigned(0xFF00)) == .constraintError)
        #expect(device.write(1, .colorControl, A.startUpColorTemperatureMireds, .bool(false)) == .invalidDataType)
        #expect(device.write(1, .colorControl, A.startUpColorTemperatureMireds, .unsigned(180)) == .success)
        device = try device.reboot(.colorTemperatureLight)
        #expect(device.color?.colorTemperatureMireds == 180)
        // Out of the physical range: clamped at boot.
        #expect(device.write(1, .colorControl, A.startUpColorTemperatureMireds, .unsigned(20)) == .success)
        device = try device.reboot(.colorTemperatureLight)
        #expect(device.color?.colorTemperatureMireds == 153)
    }

    @Test func extendedColorLightMovesInXY() throws {
        let bench = try lightOn(.extendedColorLight)
        #expect(bench.value(1, .colorControl, A.colorCapabilities) == .unsigned(0x18))
        #expect(bench.value(1, .colorControl, A.currentX) == .unsigned(24939))
        try bench.invoke(
            1, .colorControl, C.moveToColor, [0: .unsigned(30000), 1: .unsigned(20000), 2: .unsigned(10)])
        #expect(bench.value(1, .colorControl, A.colorMode) == .unsigned(1))
        #expect(bench.value(1, .colorControl, A.enhancedColorMode) == .unsigned(1))
        bench.advance(1000)
        #expect(bench.value(1, .colorControl, A.currentX) == .unsigned(30000))
        #expect(bench.value(1, .colorControl, A.currentY) == .unsigned(20000))
        try bench.invoke(1, .colorControl, C.moveToColorTemperature, [0: .unsigned(300), 1: .unsigned(0)])
        #expect(bench.value(1, .colorControl, A.colorMode) == .unsigned(2))
        #expect(
            bench.status(1, .colorControl, C.moveToColor, [0: .unsigned(0xFF00), 1: .unsigned(1), 2: .unsigned(0)])
                == .constraintError)
    }

    /// (CurrentX, CurrentY) of the light.
    static func xy(_ bench: Bench) -> (TLVValue?, TLVValue?) {
        (bench.value(1, .colorControl, A.currentX), bench.value(1, .colorControl, A.currentY))
    }

    @Test("MoveColor: each axis at its own rate to its bound; both rates 0 stop; StopMoveStep stops")
    func moveColorAtRates() throws {
        let bench = try lightOn(.extendedColorLight)
        try bench.invoke(
            1, .colorControl, C.moveToColor, [0: .unsigned(10000), 1: .unsigned(60000), 2: .unsigned(0)])
        #expect(bench.accepts(1, .colorControl, C.moveColor) && bench.accepts(1, .colorControl, C.stepColor))
        try bench.invoke(1, .colorControl, C.moveColor, [0: .signed(1000), 1: .signed(-2000)])
        #expect(bench.value(1, .colorControl, A.colorMode) == .unsigned(1))
        bench.advance(2000)
        #expect(Self.xy(bench) == (.unsigned(12000), .unsigned(56000)))
        // Both rates 0: stop where it is (no mode change, RemainingTime 0).
        try bench.invoke(1, .colorControl, C.moveColor, [0: .signed(0), 1: .signed(0)])
        bench.advance(2000)
        #expect(Self.xy(bench) == (.unsigned(12000), .unsigned(56000)))
        #expect(bench.value(1, .colorControl, A.remainingTime) == .unsigned(0))
        #expect(bench.nextTimerDeadline == nil)
        // A fast X reaches 0xFEFF and stays there while Y keeps moving down at its rate, to 0.
        try bench.invoke(1, .colorControl, C.moveColor, [0: .signed(30000), 1: .signed(-28000)])
        bench.advance(2000)
        #expect(Self.xy(bench) == (.unsigned(0xFEFF), .unsigned(0)))
        #expect(bench.nextTimerDeadline == nil)
        // StopMoveStep stops a move in the middle.
        try bench.invoke(1, .colorControl, C.moveColor, [0: .signed(-1000), 1: .signed(1000)])
        bench.advance(1000)
        try bench.invoke(1, .colorControl, C.stopMoveStep, [0: .unsigned(0), 1: .unsigned(0)])
        bench.advance(1000)
        #expect(Self.xy(bench) == (.unsigned(0xFEFF - 1000), .unsigned(1000)))
        #expect(bench.status(1, .colorControl, C.moveColor, [0: .signed(40000), 1: .signed(0)]) == .invalidCommand)
        #expect(bench.status(1, .colorControl, C.moveColor, [0: .signed(1)]) == .invalidCommand)
    }

    @Test("StepColor: a step on each axis over TransitionTime, clamped to 0...0xFEFF; ExecuteIfOff applies")
    func stepColor() throws {
        let bench = try lightOn(.extendedColorLight)
        try bench.invoke(
            1, .colorControl, C.moveToColor, [0: .unsigned(1000), 1: .unsigned(65000), 2: .unsigned(0)])
        try bench.invoke(1, .colorControl, C.stepColor, [0: .signed(-400), 1: .signed(200), 2: .unsigned(10)])
        bench.advance(500)
        #expect(Self.xy(bench) == (.unsigned(800), .unsigned(65100)))
        #expect(bench.value(1, .colorControl, A.remainingTime) == .unsigned(5))
        bench.advance(500)
        #expect(Self.xy(bench) == (.unsigned(600), .unsigned(65200)))
        // Clamped: X cannot go below 0 nor Y above 0xFEFF.
        try bench.invoke(1, .colorControl, C.stepColor, [0: .signed(-5000), 1: .signed(5000), 2: .unsigned(0)])
        #expect(Self.xy(bench) == (.unsigned(0), .unsigned(0xFEFF)))
        #expect(
            bench.status(1, .colorControl, C.stepColor, [0: .signed(1), 1: .signed(1), 2: .unsigned(0xFFFF)])
                == .constraintError)
        // Off, and without ExecuteIfOff: ignored; with the override bit: done.
        try bench.invoke(1, .onOff, .OnOff.off)
        try bench.invoke(1, .colorControl, C.stepColor, [0: .signed(100), 1: .signed(0), 2: .unsigned(0)])
        #expect(Self.xy(bench) == (.unsigned(0), .unsigned(0xFEFF)))
        try bench.invoke(
            1, .colorControl, C.stepColor,
            [0: .signed(100), 1: .signed(0), 2: .unsigned(0), 3: .unsigned(1), 4: .unsigned(1)])
        #expect(Self.xy(bench) == (.unsigned(100), .unsigned(0xFEFF)))
    }

    @Test("a colour-temperature light (no XY) refuses MoveColor and StepColor")
    func noXYNoMoveColor() throws {
        let bench = try lightOn(.colorTemperatureLight)
        #expect(!bench.accepts(1, .colorControl, C.moveColor))
        #expect(
            bench.status(1, .colorControl, C.moveColor, [0: .signed(1), 1: .signed(1)]) == .unsupportedCommand)
    }
}
