import MatterClusters
import MatterController
import MatterCore
import MatterDevice
import MatterTLV
import MatterTestSupport
import Testing

@testable import MatterHome

/// Device groups as one entity: parts, fan-out, capability ranges.
@Suite("Home API device groups")
struct DeviceGroupTests {
    let bed: HomeTestBed

    init() throws { bed = try HomeTestBed() }

    @Test("a light and a lock: on() skips the lock and succeeds; all members down: it throws")
    func mixedGroup() async throws {
        let lamp = try await bed.device("dimmable-light", name: "lamp", discriminator: 501)
        let ceiling = try await bed.device("color-temperature-light", name: "ceiling", discriminator: 502)
        let lock = try await bed.device("door-lock", name: "lock", discriminator: 503)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        _ = try await commission([lamp, ceiling, lock], in: structure)
        let group = try await structure.createDeviceGroup(name: "downstairs", devices: try await home.devices().byID())
        #expect(try await group.devices().count == 3)
        #expect(try await structure.deviceGroups().map(\.name) == ["downstairs"])

        #expect(await group.part(OnOffLightDeviceType.self) == nil)
        let light = try #require(await group.part(DimmableLightDeviceType.self))
        #expect(try await group.parts(DimmableLightDeviceType.self).count == 1)
        let onOff = try #require(light.matterTraits.onOffTrait)
        #expect(onOff.supports(.on))
        try await onOff.on()
        #expect(await lamp.deviceValue(1, .onOff, .OnOff.onOff) == .bool(true))
        #expect(await ceiling.deviceValue(1, .onOff, .OnOff.onOff) == .bool(true))
        // Dynamic state is not populated on a group part; support is. Writes go to members, not parts.
        #expect(onOff.attributes.onOff == nil)
        #expect(onOff.attributes.$onOff.isSupported)
        let write = await #expect(throws: HomeError.self) { try await onOff.update { $0.setStartUpOnOff(.on) } }
        #expect(write?.category == .invalidArgument)

        let level = try #require(light.matterTraits.levelControlTrait)
        if level.supports(.moveToLevelWithOnOff) {
            try await level.moveToLevelWithOnOff(level: 127, transitionTime: nil, optionsMask: [], optionsOverride: [])
        }
        #expect(await lamp.deviceValue(1, .levelControl, .LevelControl.currentLevel) == .unsigned(127))
        #expect(level.attributes.currentLevel == nil)

        // Capability attributes are populated: the range every colour member reaches.
        let colorLight = try #require(await group.part(ColorTemperatureLightDeviceType.self))
        let color = try #require(colorLight.matterTraits.colorControlTrait)
        let minMireds = try #require(color.attributes.colorTempPhysicalMinMireds)
        let maxMireds = try #require(color.attributes.colorTempPhysicalMaxMireds)
        let midMireds = UInt16((UInt32(minMireds) + UInt32(maxMireds)) / 2)
        try await color.moveToColorTemperature(
            colorTemperatureMireds: midMireds, transitionTime: 0, optionsMask: [], optionsOverride: [])
        #expect(
            await ceiling.deviceValue(1, .colorControl, .ColorControl.colorTemperatureMireds)
                == .unsigned(UInt64(midMireds)))

        // The lock's part: lockDoor reaches only the lock.
        let lockPart = try #require(await group.part(DoorLockDeviceType.self))
        try await lockPart.matterTraits.doorLockTrait?.lockDoor()

        // Every member that accepts OnOff is down: the group command fails like a single one.
        await lamp.stop()
        await ceiling.stop()
        let error = await #expect(throws: HomeError.self) { try await onOff.off() }
        #expect(error?.category == .unreachable)
        try await structure.deleteDeviceGroup(group)
        #expect(try await structure.deviceGroups().isEmpty)
        #expect(try await home.devices().byID().count == 3)
        await home.close()
        await lock.stop()
    }
}
