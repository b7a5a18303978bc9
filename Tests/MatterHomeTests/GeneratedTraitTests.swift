import MatterClusters
import MatterCore
import MatterDevice
import MatterInteraction
import MatterTestSupport
import Synchronization
import Testing

@testable import MatterHome

/// The traits generated from the model (no hand-written trait code): typed attributes, writes through
/// `update`, commands with typed fields and responses; and one round trip per command.
@Suite("Home API generated traits")
struct GeneratedTraitTests {
    let bed: HomeTestBed

    init() throws { bed = try HomeTestBed() }

    func eventually(_ condition: () async -> Bool) async -> Bool {
        await MatterTestSupport.eventually(within: .seconds(30), every: .milliseconds(50)) { await condition() }
    }

    @Test("a thermostat, a window covering and the root node through generated traits")
    func thermostatCoveringAndRoot() async throws {
        let thermostat = try await bed.device("thermostat", name: "thermostat", discriminator: 641)
        let blind = try await bed.device("window-covering", name: "blind", discriminator: 642)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        let ids = try await commission([thermostat, blind], in: structure)
        let devices = try await home.devices().byID()
        let first = try #require(devices.first { $0.id == ids[0] })
        let second = try #require(devices.first { $0.id == ids[1] })

        let trait = try #require(await first.types.get(ThermostatDeviceType.self)?.matterTraits.thermostatTrait)
        #expect(trait.attributes.featureMap?.contains(.heating) == true)
        #expect(trait.attributes.localTemperature != nil && trait.attributes.$localTemperature.isNullable)
        #expect(trait.attributes.$occupiedHeatingSetpoint.isSupported)
        #expect(trait.attributes.systemMode != nil)
        try await trait.update { $0.setOccupiedHeatingSetpoint(2100) }
        #expect(trait.attributes.occupiedHeatingSetpoint == 2100)
        #expect(trait.supports(.setpointRaiseLower) && trait.supportsSetpointRaiseLowerCommand)
        try await trait.setpointRaiseLower(mode: .heat, amount: 10)
        // A command returns at the first report of its cluster since it was sent; the room's own report of
        // LocalTemperature (every second while it heats) may be that one, so the setpoint is waited for.
        #expect(await eventually { trait.attributes.occupiedHeatingSetpoint == 2200 })
        let refused = await #expect(throws: HomeError.self) {
            try await trait.update { $0.setOccupiedHeatingSetpoint(-30000) }
        }
        #expect(refused?.subcodes == [0x87])  // CONSTRAINT_ERROR
        #expect(trait.attributes.occupiedHeatingSetpoint == 2200)

        let covering = try #require(
            await second.types.get(WindowCoveringDeviceType.self)?.matterTraits.windowCoveringTrait)
        #expect(covering.attributes.type != nil && covering.attributes.configStatus != nil)
        try await covering.goToLiftPercentage(liftPercent100thsValue: 2500)
        #expect(covering.attributes.targetPositionLiftPercent100ths == 2500)
        try await covering.stopMotion()

        // Endpoint 0's clusters: the root node's traits; a command answered with a response command.
        let root = try #require(await first.types.get(RootNodeDeviceType.self))
        let basic = try #require(root.matterTraits.basicInformationTrait)
        #expect(basic.attributes.vendorID == 0xFFF1 && basic.attributes.dataModelRevision != nil)
        let fabrics = try #require(root.matterTraits.operationalCredentialsTrait)
        #expect(fabrics.attributes.supportedFabrics ?? 0 >= 5)
        let label = try await fabrics.updateFabricLabel(label: "Upstairs")
        #expect(label.statusCode == .ok)
        #expect(
            Matter.DoorLockTrait.supportedEventTypes.contains { $0 == Matter.DoorLockTrait.LockOperationEvent.self })
        await home.close()
        await thermostat.stop()
        await blind.stop()
    }

    @Test("a toggle through a trait is one round trip: one invoke, no read; the report brings its effect")
    func oneRoundTrip() async throws {
        let lamp = try await bed.device("on-off-light", name: "lamp", discriminator: 651)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        _ = try await commission([lamp], in: structure)
        let device = try #require(try await home.devices().byID().first)
        let onOff = try #require(await device.types.get(OnOffLightDeviceType.self)?.matterTraits.onOffTrait)
        let before = await lamp.statistics().interactions
        try await onOff.toggle()
        #expect(onOff.attributes.onOff == true)
        try await onOff.update { $0.setOnTime(30) }
        #expect(onOff.attributes.onTime == 30)
        let after = await lamp.statistics().interactions
        #expect(after.invokeRequests - before.invokeRequests == 1)
        #expect(after.writeRequests - before.writeRequests == 1)
        #expect(after.readRequests == before.readRequests)
        #expect(after.subscribeRequests == before.subscribeRequests)
        await home.close()
        await lamp.stop()
    }
}

/// `home.sendBatchedCommands`: several commands to several devices, per device in as few InvokeRequests
/// as its MaxPathsPerInvoke allows, with a result per command.
@Suite("Home API batched commands")
struct BatchedCommandTests {
    let bed: HomeTestBed

    init() throws { bed = try HomeTestBed() }

    @Test("a batch to a device taking three commands per request and one taking one; a result per command")
    func batch() async throws {
        let wide = try await bed.device("dimmable-light", name: "wide", discriminator: 661, maxPathsPerInvoke: 3)
        let narrow = try await bed.device("on-off-light", name: "narrow", discriminator: 662)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        let ids = try await commission([wide, narrow], in: structure)
        let devices = try await home.devices().byID()
        let first = try #require(devices.first { $0.id == ids[0] })
        let second = try #require(devices.first { $0.id == ids[1] })
        let light = try #require(await first.types.get(DimmableLightDeviceType.self))
        let onOff = try #require(light.matterTraits.onOffTrait)
        let level = try #require(light.matterTraits.levelControlTrait)
        let root = try #require(
            await first.types.get(RootNodeDeviceType.self)?.matterTraits.operationalCredentialsTrait)
        #expect(
            await first.types.get(RootNodeDeviceType.self)?.matterTraits.basicInformationTrait?.attributes
                .maxPathsPerInvoke == 3)
        let other = try #require(await second.types.get(OnOffLightDeviceType.self))
        let otherOnOff = try #require(other.matterTraits.onOffTrait)
        // The narrow light has no LevelControl: that command alone fails.
        let missing = Matter.LevelControlTrait(part: other.part)

        let wideBefore = await wide.statistics().interactions.invokeRequests
        let narrowBefore = await narrow.statistics().interactions.invokeRequests
        let results = await home.sendBatchedCommands { batcher in
            (
                batcher.add(onOff.onBatchable()),
                batcher.add(
                    level.moveToLevelBatchable(level: 100, transitionTime: 0, optionsMask: [], optionsOverride: [])),
                batcher.add(root.updateFabricLabelBatchable(label: "Batched")),
                batcher.add(otherOnOff.toggleBatchable()),
                batcher.add(
                    missing.moveToLevelBatchable(level: 1, transitionTime: 0, optionsMask: [], optionsOverride: []))
            )
        }
        #expect(results.0.isSuccessful && results.1.isSuccessful && results.3.isSuccessful)
        #expect(try results.2.getOrThrow().statusCode == .ok)
        let refused = #expect(throws: HomeError.self) { try results.4.getOrThrow() }
        #expect(refused?.code == .notFound)
        #expect(await wide.statistics().interactions.invokeRequests - wideBefore == 1)
        #expect(await narrow.statistics().interactions.invokeRequests - narrowBefore == 2)
        // The reports brought the effects: the attributes are current.
        #expect(onOff.attributes.onOff == true && level.attributes.currentLevel == 100)
        #expect(otherOnOff.attributes.onOff == true)

        let late = Mutex<CommandBatcher?>(nil)
        _ = await home.sendBatchedCommands { batcher in late.withLock { $0 = batcher } }
        let after = try #require(late.withLock { $0 }).add(onOff.offBatchable())
        #expect(!after.isSuccessful)
        await home.close()
        await wide.stop()
        await narrow.stop()
    }
}
