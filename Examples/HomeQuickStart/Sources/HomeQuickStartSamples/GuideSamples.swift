// The samples of Google's Home API guides for iOS, ported with only set-up changes (no Apple
// MatterAddDeviceRequest: our Home commissions itself; prints instead of comments). One other change:
// the guides' `catch let _ as HomeError` is `catch let error` here, since our commands declare
// `throws(HomeError)` and the cast would always succeed (a compiler warning). The guides' snippets
// are wrapped in public functions whose parameters are the objects they use (`onOffTraitTest`,
// `group`...), and the commissioning flow takes the name the user would type in Apple's flow. What
// each one did is checked by Tests/HomeQuickStartTests.

import MatterHome

/// "Add new Matter devices to a home": prepare, commission, complete, or cancel. `name` is what the
/// user types in Apple's flow (the extension's `configureDevice(named:in:)` receives it).
public func commissionDevice(structure: Structure, onboardingPayload: String, named name: String) async throws {
    do {
        try await structure.prepareForMatterCommissioning()
    } catch {
        print("Failed to prepare for Matter Commissioning: \(error)")
        return
    }
    do {
        // Instead of MatterAddDeviceRequest.perform() and its extension's commissionDevice(in:...):
        try await structure.commissionMatterDevice(onboardingPayload: onboardingPayload)
        // The extension's configureDevice(named:in:).
        let rooms = try await structure.rooms().list()
        var room = rooms.first
        if room == nil { room = try await structure.createRoom(name: "Living room") }
        try await structure.configureDevice(named: name, in: room)
        let commissionedDeviceIDs = try structure.completeMatterCommissioning()
        print("Commissioned device IDs: \(commissionedDeviceIDs)")
    } catch let error {
        structure.cancelMatterCommissioning()
        print("Failed to complete commissioning: \(error)")
    }
}

/// "Control devices on iOS": supports, commands, commands with parameters.
public func controlSamples(
    onOffTraitTest: Matter.OnOffTrait, levelControlTraitTest: Matter.LevelControlTrait
) async throws {
    // Check if the OnOff trait supports the toggle command.
    if onOffTraitTest.supportsToggleCommand {
        print("onOffTrait supports toggle command")
    } else {
        print("onOffTrait does not support stateful toggle command")
    }

    // Calling a command on a trait.
    do {
        try await onOffTraitTest.toggle()
    } catch let error {  // a HomeError: the trait's commands have typed throws
        print("toggle failed: \(error)")
    }
    print("onOff after toggle: \(String(describing: onOffTraitTest.attributes.onOff))")

    do {
        try await onOffTraitTest.off()
        try await onOffTraitTest.on()
    } catch let error {  // a HomeError: the trait's commands have typed throws
        print("off/on failed: \(error)")
    }

    // Change the brightness of the light to 50%
    do {
        try await levelControlTraitTest.moveToLevel(
            level: UInt8(127),
            transitionTime: 0,
            optionsMask: Matter.LevelControlTrait.OptionsBitmap(),
            optionsOverride: Matter.LevelControlTrait.OptionsBitmap()
        )
    } catch let error {  // a HomeError: the trait's commands have typed throws
        print("moveToLevel failed: \(error)")
    }
    print("currentLevel: \(String(describing: levelControlTraitTest.attributes.currentLevel))")

    // Turn off the light using the DyingLight effect.
    do {
        try await onOffTraitTest.offWithEffect(
            effectIdentifier: Matter.OnOffTrait.EffectIdentifierEnum.dyingLight,
            effectVariant: 0
        )
    } catch let error {  // a HomeError: the trait's commands have typed throws
        print("offWithEffect failed: \(error)")
    }

    // Check if the OnOff trait supports the onOff attribute.
    if onOffTraitTest.attributes.$onOff.isSupported {
        print("onOffTrait supports onOff state")
    } else {
        print("onOffTrait is for a command only device!")
    }
}

/// isSupported and isNullable.
public func nullableSample(device: HomeDevice) async {
    // Check if a nullable attribute is set or is not supported.
    if let deviceType = await device.types.get(OnOffLightDeviceType.self) {
        if let onOffTrait = deviceType.traits[Matter.OnOffTrait.self] {
            if onOffTrait.attributes.startUpOnOff == nil {
                if onOffTrait.attributes.$startUpOnOff.isSupported {
                    print(
                        "onOffTrait supports startUpOnOff and it is nil. Check the spec for the contextual meaning."
                    )
                } else {
                    print("onOffTrait does not support startUpOnOff!")
                }
            } else {
                print(
                    "onOffTrait supports startUpOnOff and it is set to \(String(describing: onOffTrait.attributes.startUpOnOff))"
                )
            }
        }
    }
}

/// Writing an attribute with update (on a lock, when there is one).
public func updateSample(doorLockTraitTest: Matter.DoorLockTrait) async throws {
    if doorLockTraitTest.attributes.$wrongCodeEntryLimit.isSupported {
        let _ = try await doorLockTraitTest.update {
            $0.setWrongCodeEntryLimit(3)
        }
    }
}

/// The on/off trait of the group's first light part (on/off, dimmable, colour-temperature or extended
/// colour light), if it has one.
public func onOffTrait(in group: DeviceGroup) async -> Matter.OnOffTrait? {
    if let light = await group.part(OnOffLightDeviceType.self) {
        return light.matterTraits.onOffTrait
    }
    if let light = await group.part(DimmableLightDeviceType.self) {
        return light.matterTraits.onOffTrait
    }
    if let light = await group.part(ColorTemperatureLightDeviceType.self) {
        return light.matterTraits.onOffTrait
    }
    if let light = await group.part(ExtendedColorLightDeviceType.self) {
        return light.matterTraits.onOffTrait
    }
    return nil
}

/// Device groups.
public func groupSamples(group: DeviceGroup) async throws {
    if let lightPart = await group.part(OnOffLightDeviceType.self),
        let onOffTrait = lightPart.matterTraits.onOffTrait,
        onOffTrait.supports(.on)
    {
        try await onOffTrait.on()
    }

    if let trait = await onOffTrait(in: group) {
        try await trait.off()
    }

    if let dimmableLight = await group.part(DimmableLightDeviceType.self),
        let levelTrait = dimmableLight.matterTraits.levelControlTrait,
        levelTrait.supports(.moveToLevelWithOnOff)
    {
        try await levelTrait.moveToLevelWithOnOff(
            level: 127,
            transitionTime: nil,
            optionsMask: [],
            optionsOverride: []
        )
    }

    if let colorLight = await group.part(ColorTemperatureLightDeviceType.self),
        let colorTrait = colorLight.matterTraits.colorControlTrait,
        let minMireds = colorTrait.attributes.colorTempPhysicalMinMireds,
        let maxMireds = colorTrait.attributes.colorTempPhysicalMaxMireds
    {
        let midMireds = UInt16((UInt32(minMireds) + UInt32(maxMireds)) / 2)
        try await colorTrait.moveToColorTemperature(
            colorTemperatureMireds: midMireds,
            transitionTime: 0,
            optionsMask: [],
            optionsOverride: []
        )
    }
    print("group \"\(group.name)\" samples done")
}
