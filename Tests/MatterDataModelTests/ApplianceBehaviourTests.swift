import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import Testing

/// Appliances, energy devices, closures and cameras: the behaviours behind every command they accept.
@Suite("Appliance, energy, closure and camera behaviours")
struct ApplianceBehaviourTests {
    /// The first context-tagged member of `value` (a structure) with tag `tag`.
    func member(_ value: TLVValue?, _ tag: UInt8) -> TLVValue? {
        guard case .structure(let fields)? = value else { return nil }
        return fields.first { $0.tag == .context(tag) }?.value
    }

    func events(_ bench: Bench, _ cluster: ClusterID) -> [EventID] {
        bench.model.eventRecords(from: 0).filter { $0.path.cluster == cluster }.map(\.path.event)
    }

    @Test("a refrigerator's cabinet keeps 1...8 °C in 0.5 °C steps; an oven's 50...250 °C; a cook surface's levels")
    func temperatureControl() throws {
        let fridge = try Bench(try DevicePreset(cliName: "refrigerator"))
        #expect(fridge.value(2, .temperatureControl, .TemperatureControl.temperatureSetpoint) == .signed(400))
        try fridge.invoke(2, .temperatureControl, .TemperatureControl.setTemperature, [0: .signed(300)])
        #expect(fridge.value(2, .temperatureControl, .TemperatureControl.temperatureSetpoint) == .signed(300))
        #expect(
            fridge.status(2, .temperatureControl, .TemperatureControl.setTemperature, [0: .signed(2000)])
                == .constraintError)
        #expect(fridge.status(2, .temperatureControl, .TemperatureControl.setTemperature) == .invalidCommand)
        let oven = try Bench(try DevicePreset(cliName: "oven"))
        #expect(oven.value(2, .temperatureControl, .TemperatureControl.maxTemperature) == .signed(25000))
        try oven.invoke(2, .temperatureControl, .TemperatureControl.setTemperature, [0: .signed(22000)])
        #expect(oven.value(2, .temperatureControl, .TemperatureControl.temperatureSetpoint) == .signed(22000))
        let surface = try Bench(try DevicePreset(cliName: "cook-surface"))
        try surface.invoke(1, .temperatureControl, .TemperatureControl.setTemperature, [1: .unsigned(2)])
        #expect(surface.value(1, .temperatureControl, .TemperatureControl.selectedTemperatureLevel) == .unsigned(2))
        #expect(
            surface.status(1, .temperatureControl, .TemperatureControl.setTemperature, [1: .unsigned(3)])
                == .constraintError)
    }

    @Test("a water heater's boost heats for its duration and ends by itself; CancelBoost ends it at once")
    func waterHeaterBoost() throws {
        let bench = try Bench(try DevicePreset(cliName: "water-heater"))
        let boost: [UInt8: TLVValue] = [0: .structure([TLVElement(tag: .context(0), .unsigned(60))])]
        try bench.invoke(1, .waterHeaterManagement, .WaterHeaterManagement.boost, boost)
        #expect(bench.value(1, .waterHeaterManagement, .WaterHeaterManagement.boostState) == .unsigned(1))
        #expect(bench.value(1, .waterHeaterManagement, .WaterHeaterManagement.heatDemand) == .unsigned(1))
        bench.advance(60_000)
        #expect(bench.value(1, .waterHeaterManagement, .WaterHeaterManagement.boostState) == .unsigned(0))
        try bench.invoke(1, .waterHeaterManagement, .WaterHeaterManagement.boost, boost)
        try bench.invoke(1, .waterHeaterManagement, .WaterHeaterManagement.cancelBoost)
        #expect(bench.value(1, .waterHeaterManagement, .WaterHeaterManagement.boostState) == .unsigned(0))
        #expect(
            events(bench, .waterHeaterManagement) == [
                .WaterHeaterManagement.boostStarted, .WaterHeaterManagement.boostEnded,
                .WaterHeaterManagement.boostStarted, .WaterHeaterManagement.boostEnded,
            ])
        let none: [UInt8: TLVValue] = [0: .structure([TLVElement(tag: .context(0), .unsigned(0))])]
        #expect(bench.status(1, .waterHeaterManagement, .WaterHeaterManagement.boost, none) == .constraintError)
    }

    @Test("a microwave: cooking parameters checked, refused while cooking, StartAfterSetting starts the cycle")
    func microwave() throws {
        let bench = try Bench(try DevicePreset(cliName: "microwave-oven"))
        #expect(
            bench.status(1, .microwaveOvenControl, .MicrowaveOvenControl.setCookingParameters, [2: .unsigned(15)])
                == .constraintError)  // not a step of 10
        try bench.invoke(
            1, .microwaveOvenControl, .MicrowaveOvenControl.setCookingParameters,
            [0: .unsigned(1), 1: .unsigned(90), 2: .unsigned(60), 4: .bool(true)])
        #expect(bench.value(1, .microwaveOvenControl, .MicrowaveOvenControl.cookTime) == .unsigned(90))
        #expect(bench.value(1, .microwaveOvenMode, .MicrowaveOvenMode.currentMode) == .unsigned(1))
        #expect(bench.value(1, .operationalState, .OperationalState.operationalState) == .unsigned(1))
        #expect(
            bench.status(1, .microwaveOvenControl, .MicrowaveOvenControl.setCookingParameters, [1: .unsigned(10)])
                == .invalidInState)
    }

    @Test("a battery's power adjustment runs for its duration (PowerAdjustActive), or until cancelled")
    func powerAdjustment() throws {
        let bench = try Bench(try DevicePreset(cliName: "battery-storage"))
        let request: [UInt8: TLVValue] = [0: .signed(2_000_000), 1: .unsigned(120), 2: .unsigned(1)]
        try bench.invoke(1, .deviceEnergyManagement, .DeviceEnergyManagement.powerAdjustRequest, request)
        #expect(bench.value(1, .deviceEnergyManagement, .DeviceEnergyManagement.esaState) == .unsigned(3))
        bench.advance(120_000)
        #expect(bench.value(1, .deviceEnergyManagement, .DeviceEnergyManagement.esaState) == .unsigned(1))
        #expect(
            bench.status(1, .deviceEnergyManagement, .DeviceEnergyManagement.cancelPowerAdjustRequest)
                == .invalidInState)
        let tooMuch: [UInt8: TLVValue] = [0: .signed(9_000_000), 1: .unsigned(120), 2: .unsigned(1)]
        #expect(
            bench.status(1, .deviceEnergyManagement, .DeviceEnergyManagement.powerAdjustRequest, tooMuch)
                == .constraintError)
        #expect(
            events(bench, .deviceEnergyManagement) == [
                .DeviceEnergyManagement.powerAdjustStart, .DeviceEnergyManagement.powerAdjustEnd,
            ])
    }

    @Test("an EV charger's targets: set per day, answered by GetTargets, replaced day by day, cleared")
    func chargingTargets() throws {
        let bench = try Bench(try DevicePreset(cliName: "energy-evse"))
        func schedule(_ days: UInt64, _ minutes: UInt64) -> TLVElement {
            TLVElement(
                .structure([
                    TLVElement(tag: .context(0), .unsigned(days)),
                    TLVElement(
                        tag: .context(1),
                        .array([
                            TLVElement(
                                .structure([
                                    TLVElement(tag: .context(0), .unsigned(minutes)),
                                    TLVElement(tag: .context(1), .unsigned(80)),
                                ]))
                        ])),
                ]))
        }
        func targets() throws -> [TLVElement] {
            guard case .array(let list)? = member(try bench.invoke(1, .energyEvse, .EnergyEvse.getTargets)?.fields, 0)
            else { return [] }
            return list
        }
        try bench.invoke(1, .energyEvse, .EnergyEvse.setTargets, [0: .array([schedule(0b0011111, 420)])])
        #expect(try targets().count == 1)
        // Monday (bit 1) again: the weekday schedule keeps the other four days.
        try bench.invoke(1, .energyEvse, .EnergyEvse.setTargets, [0: .array([schedule(0b0000010, 480)])])
        let now = try targets()
        #expect(now.count == 2)
        #expect(member(now.first?.value, 0) == .unsigned(0b0011101))
        #expect(
            bench.status(1, .energyEvse, .EnergyEvse.setTargets, [0: .array([schedule(1, 1440)])]) == .constraintError)
        try bench.invoke(1, .energyEvse, .EnergyEvse.clearTargets)
        #expect(try targets().isEmpty)
    }

    @Test("a garage door opens over its travel time, secure only when closed; Stop leaves it partly open")
    func closure() throws {
        let bench = try Bench(try DevicePreset(cliName: "closure"))
        #expect(member(bench.value(1, .closureControl, .ClosureControl.overallCurrentState), 3) == .bool(true))
        try bench.invoke(1, .closureControl, .ClosureControl.moveTo, [0: .unsigned(1)])  // MoveToFullyOpen
        #expect(bench.value(1, .closureControl, .ClosureControl.mainState) == .unsigned(1))
        bench.advance(10_000)
        let open = bench.value(1, .closureControl, .ClosureControl.overallCurrentState)
        #expect(member(open, 0) == .unsigned(1) && member(open, 3) == .bool(false))
        try bench.invoke(1, .closureControl, .ClosureControl.moveTo, [0: .unsigned(0)])
        bench.advance(4_000)
        try bench.invoke(1, .closureControl, .ClosureControl.stop)
        #expect(member(bench.value(1, .closureControl, .ClosureControl.overallCurrentState), 0) == .unsigned(2))
        #expect(bench.status(1, .closureControl, .ClosureControl.moveTo) == .invalidCommand)
        #expect(
            events(bench, .closureControl).filter { $0 == .ClosureControl.movementCompleted }.count == 1)
    }

    @Test("a closure panel moves 10 % a second to its target; Step moves by StepValue; off-resolution refused")
    func closurePanel() throws {
        let bench = try Bench(try DevicePreset(cliName: "closure-panel"))
        try bench.invoke(1, .closureDimension, .ClosureDimension.setTarget, [0: .unsigned(3000)])
        bench.advance(2_000)
        #expect(member(bench.value(1, .closureDimension, .ClosureDimension.currentState), 0) == .unsigned(2000))
        bench.advance(1_000)
        #expect(member(bench.value(1, .closureDimension, .ClosureDimension.currentState), 0) == .unsigned(3000))
        #expect(bench.value(1, .closureDimension, .ClosureDimension.targetState) == .null)
        try bench.invoke(1, .closureDimension, .ClosureDimension.step, [0: .unsigned(0), 1: .unsigned(2)])
        bench.advance(5_000)
        #expect(member(bench.value(1, .closureDimension, .ClosureDimension.currentState), 0) == .unsigned(1000))
        #expect(
            bench.status(1, .closureDimension, .ClosureDimension.setTarget, [0: .unsigned(3050)]) == .constraintError)
    }

    @Test("a camera: priorities among its stream usages; a snapshot needs a snapshot stream and is a JPEG")
    func cameraSnapshot() throws {
        let bench = try Bench(try DevicePreset(cliName: "camera"))
        let usages: [UInt8: TLVValue] = [0: .array([TLVElement(.unsigned(1)), TLVElement(.unsigned(3))])]
        try bench.invoke(1, .cameraAvStreamManagement, .CameraAvStreamManagement.setStreamPriorities, usages)
        #expect(
            bench.value(1, .cameraAvStreamManagement, .CameraAvStreamManagement.streamUsagePriorities)
                == .array([TLVElement(.unsigned(1)), TLVElement(.unsigned(3))]))
        let analysis: [UInt8: TLVValue] = [0: .array([TLVElement(.unsigned(2))])]
        #expect(
            bench.status(1, .cameraAvStreamManagement, .CameraAvStreamManagement.setStreamPriorities, analysis)
                == .constraintError)
        let resolution = TLVValue.structure([
            TLVElement(tag: .context(0), .unsigned(1920)), TLVElement(tag: .context(1), .unsigned(1080)),
        ])
        let capture: [UInt8: TLVValue] = [0: .null, 1: resolution]
        #expect(
            bench.status(1, .cameraAvStreamManagement, .CameraAvStreamManagement.captureSnapshot, capture) == .notFound)
        try bench.invoke(
            1, .cameraAvStreamManagement, .CameraAvStreamManagement.snapshotStreamAllocate,
            [0: .unsigned(0), 1: .unsigned(1), 2: resolution, 3: resolution, 4: .unsigned(90)])
        let snapshot = try bench.invoke(
            1, .cameraAvStreamManagement, .CameraAvStreamManagement.captureSnapshot, capture)
        guard case .bytes(let jpeg)? = member(snapshot?.fields, 0) else {
            Issue.record("no snapshot: \(String(describing: snapshot))")
            return
        }
        #expect(jpeg.prefix(2) == [0xFF, 0xD8] && jpeg.suffix(2) == [0xFF, 0xD9])
    }

    @Test("an intercom's WebRTC requestor answers NOT_FOUND for a session it did not open")
    func requestor() throws {
        let bench = try Bench(try DevicePreset(cliName: "intercom"))
        #expect(
            bench.status(
                1, .webRtcTransportRequestor, .WebRtcTransportRequestor.answer, [0: .unsigned(7), 1: .utf8("v=0")])
                == .notFound)
    }

    @Test("a tilt blind: its slats tilt at 50 % a second while the lift stays; OperationalStatus says which moves")
    func windowCoveringTilt() throws {
        let bench = try Bench(try DevicePreset(cliName: "window-covering"))
        #expect(bench.value(1, .windowCovering, .WindowCovering.type) == .unsigned(0x08))
        try bench.invoke(1, .windowCovering, .WindowCovering.goToTiltPercentage, [0: .unsigned(5000)])
        bench.advance(500)
        // Closing (2): globally and for the tilt (bits 4-5), not the lift (bits 2-3).
        #expect(bench.value(1, .windowCovering, .WindowCovering.operationalStatus) == .unsigned(2 | 2 << 4))
        // A step at once, five more in 500 ms.
        #expect(bench.value(1, .windowCovering, .WindowCovering.currentPositionTiltPercent100ths) == .unsigned(3000))
        bench.advance(600)
        #expect(bench.value(1, .windowCovering, .WindowCovering.currentPositionTiltPercentage) == .unsigned(50))
        #expect(bench.value(1, .windowCovering, .WindowCovering.currentPositionLiftPercent100ths) == .unsigned(0))
        #expect(bench.value(1, .windowCovering, .WindowCovering.operationalStatus) == .unsigned(0))
        try bench.invoke(1, .windowCovering, .WindowCovering.upOrOpen)
        bench.advance(2000)
        #expect(bench.value(1, .windowCovering, .WindowCovering.currentPositionTiltPercent100ths) == .unsigned(0))
    }

    @Test("a mode cluster has a mode per mode tag of its own; ChangeToMode takes one of them, UnsupportedMode else")
    func modes() throws {
        let bench = try Bench(try DevicePreset(cliName: "energy-evse"))
        guard case .array(let modes)? = bench.value(1, .energyEvseMode, .EnergyEvseMode.supportedModes) else {
            Issue.record("no SupportedModes")
            return
        }
        #expect(
            modes.map { member($0.value, 0) } == [
                .utf8("Manual"), .utf8("Time Of Use"), .utf8("Solar Charging"), .utf8("V2x"),
            ])
        let changed = try bench.invoke(1, .energyEvseMode, .EnergyEvseMode.changeToMode, [0: .unsigned(2)])
        #expect(member(changed?.fields, 0) == .unsigned(0))
        #expect(bench.value(1, .energyEvseMode, .EnergyEvseMode.currentMode) == .unsigned(2))
        let refused = try bench.invoke(1, .energyEvseMode, .EnergyEvseMode.changeToMode, [0: .unsigned(9)])
        #expect(member(refused?.fields, 0) == .unsigned(1))  // UnsupportedMode
        #expect(bench.value(1, .energyEvseMode, .EnergyEvseMode.currentMode) == .unsigned(2))
    }
}
