import HomeQuickStartSamples
import MatterHome
import MatterOnboarding
import Testing

/// Each sample of the Home API guides (Sources/HomeQuickStartSamples/GuideSamples.swift), run on real
/// virtual devices in this process that the commissioning sample commissioned over loopback UDP, and
/// checked by what it did to them. Serialized: the samples drive the same four devices.
@Suite("The Home API guides' samples", .serialized, .commissionedHome)
struct GuideSampleTests {
    @Test("commissioning: each device is commissioned under its name, into the Living room the sample created")
    func commissioning() async throws {
        let fixture = try CommissionedHome.required()
        let devices = try await fixture.structure.devices().list()
        #expect(Set(devices.map(\.name)) == ["Hall light", "Desk lamp", "Ceiling", "Front door"])
        #expect(try await fixture.structure.rooms().list().map(\.name) == ["Living room"])
        #expect(devices.allSatisfy { $0.room?.name == "Living room" }, "\(devices.map { $0.room?.name })")
        for (device, name) in fixture.quickStart.namedDevices {
            // The device's side: one fabric, whose node ID is the home's ID of the device; the window closed.
            let fabrics = await device.fabrics()
            #expect(fabrics.count == 1, "\(name)")
            #expect(
                fabrics.first.map { String($0.nodeID.rawValue) } == devices.first { $0.name == name }?.id, "\(name)")
            #expect(await !device.isCommissionable(), "\(name)")
        }
    }

    @Test(
        "commissioning: a wrong passcode ends in cancelMatterCommissioning, adding nothing; the right one then adds it")
    func commissioningWithWrongPasscode() async throws {
        let fixture = try CommissionedHome.required()
        let directory = fixture.quickStart.stateDirectory + "/porch-home"
        let porch = try await QuickStart.startDevice(
            "on-off-light", in: fixture.quickStart.stateDirectory, name: "porch-light")
        var wrong = porch.setupPayload
        wrong.passcode = wrong.passcode == 20_202_022 ? 20_202_023 : 20_202_022
        try await QuickStart.commission(
            porch, named: "Porch light", homeDirectory: directory, onboardingPayload: try SetupQRCode.encode(wrong))
        #expect(await porch.fabrics().isEmpty)
        #expect(await porch.isCommissionable())
        let before = try await QuickStart.homeDevices(directory: directory)
        #expect(before.isEmpty, "\(before.map(\.name))")

        try await QuickStart.commission(porch, named: "Porch light", homeDirectory: directory)
        let after = try await QuickStart.homeDevices(directory: directory)
        #expect(after.map(\.name) == ["Porch light"])
        #expect(await porch.fabrics().count == 1)
        await porch.stop()
    }

    @Test("device control: toggle, off/on, moveToLevel(127) and offWithEffect leave the lamp off at 127")
    func control() async throws {
        let fixture = try CommissionedHome.required()
        let lamp = try await fixture.type(DimmableLightDeviceType.self, of: "Desk lamp")
        let onOff = try #require(lamp.traits[Matter.OnOffTrait.self])
        let level = try #require(lamp.matterTraits.levelControlTrait)
        // A start the samples have to change: on, at level 10.
        try await onOff.on()
        try await level.moveToLevel(level: 10, transitionTime: 0, optionsMask: [], optionsOverride: [])
        #expect(await eventually { onOff.attributes.onOff == true && level.attributes.currentLevel == 10 })

        try await controlSamples(onOffTraitTest: onOff, levelControlTraitTest: level)
        #expect(onOff.supportsToggleCommand)
        #expect(onOff.attributes.$onOff.isSupported)
        #expect(level.attributes.currentLevel == 127)
        #expect(onOff.attributes.onOff == false)
        try await onOff.toggle()
        #expect(onOff.attributes.onOff == true)
    }

    @Test("isSupported and null: a new on/off light's startUpOnOff is supported and null, then set")
    func supportedAndNull() async throws {
        let fixture = try CommissionedHome.required()
        let hall = try await fixture.device("Hall light")
        let onOff = try #require(await hall.types.get(OnOffLightDeviceType.self)?.traits[Matter.OnOffTrait.self])
        // The sample reads these to choose what it prints (the quick start's run shows the line).
        await nullableSample(device: hall)
        #expect(onOff.attributes.$startUpOnOff.isSupported)
        #expect(onOff.attributes.$startUpOnOff.isNullable)
        #expect(onOff.attributes.startUpOnOff == nil)
        try await onOff.update { $0.setStartUpOnOff(.on) }
        await nullableSample(device: hall)
        #expect(onOff.attributes.startUpOnOff == .on)
        // Back to null, as a new light.
        try await onOff.update { $0.setStartUpOnOff(nil) }
        #expect(onOff.attributes.startUpOnOff == nil)
    }

    @Test("update: the sample writes the lock's wrongCodeEntryLimit to 3")
    func update() async throws {
        let fixture = try CommissionedHome.required()
        let lock = try #require(
            try await fixture.type(DoorLockDeviceType.self, of: "Front door").matterTraits.doorLockTrait)
        #expect(lock.attributes.$wrongCodeEntryLimit.isSupported)
        _ = try await lock.update { $0.setWrongCodeEntryLimit(5) }
        #expect(lock.attributes.wrongCodeEntryLimit == 5)
        try await updateSample(doorLockTraitTest: lock)
        #expect(lock.attributes.wrongCodeEntryLimit == 3)
    }

    @Test("device groups: on() then off(), moveToLevelWithOnOff(127) and moveToColorTemperature reach the members")
    func groups() async throws {
        let fixture = try CommissionedHome.required()
        let hall = try #require(
            try await fixture.type(OnOffLightDeviceType.self, of: "Hall light").matterTraits.onOffTrait)
        let lamp = try await fixture.type(DimmableLightDeviceType.self, of: "Desk lamp")
        let lampOnOff = try #require(lamp.matterTraits.onOffTrait)
        let lampLevel = try #require(lamp.matterTraits.levelControlTrait)
        let ceiling = try await fixture.type(ColorTemperatureLightDeviceType.self, of: "Ceiling")
        let ceilingOnOff = try #require(ceiling.matterTraits.onOffTrait)
        let color = try #require(ceiling.matterTraits.colorControlTrait)
        let minMireds = try #require(color.attributes.colorTempPhysicalMinMireds)
        let maxMireds = try #require(color.attributes.colorTempPhysicalMaxMireds)
        let midMireds = UInt16((UInt32(minMireds) + UInt32(maxMireds)) / 2)
        try #require(minMireds < midMireds, "the ceiling light's range \(minMireds)...\(maxMireds)")
        // A start the samples have to change: the hall light on, the lamp off at 10, the ceiling at its minimum.
        try await hall.on()
        try await lampOnOff.on()
        try await lampLevel.moveToLevel(level: 10, transitionTime: 0, optionsMask: [], optionsOverride: [])
        try await lampOnOff.off()
        try await ceilingOnOff.on()
        try await color.moveToColorTemperature(
            colorTemperatureMireds: minMireds, transitionTime: 0, optionsMask: [], optionsOverride: [])
        #expect(
            await eventually {
                hall.attributes.onOff == true && lampOnOff.attributes.onOff == false
                    && lampLevel.attributes.currentLevel == 10 && color.attributes.colorTemperatureMireds == minMireds
            })

        let devices = try await fixture.structure.devices().list()
        let group = try await fixture.structure.createDeviceGroup(name: "everything", devices: devices)
        try await groupSamples(group: group)
        #expect(await eventually { hall.attributes.onOff == false }, "on() then off() leave the on/off light off")
        #expect(
            await eventually { lampOnOff.attributes.onOff == true && lampLevel.attributes.currentLevel == 127 },
            "moveToLevelWithOnOff(127) turns the lamp on at 127")
        #expect(
            await eventually { color.attributes.colorTemperatureMireds == midMireds },
            "moveToColorTemperature(\(midMireds)) reaches the ceiling light")

        // A group's part holds no state of its own, but says which commands its members support.
        let part = try #require(await group.part(DimmableLightDeviceType.self))
        #expect(part.matterTraits.onOffTrait?.attributes.onOff == nil)
        #expect(part.matterTraits.onOffTrait?.supports(.toggle) == true)
        #expect(await onOffTrait(in: group) != nil)
    }
}
