// Starts a virtual on/off light, a dimmable light, a colour-temperature light and a door lock on
// loopback, in this process; commissions each with the Home API by its QR code (at its address: no DNS-SD needed); runs
// the samples of the commissioning and device-control guides (GuideSamples.swift) on them; and checks
// what they did. Prints `check ok: ...` / `check FAILED: ...` lines and exits 1 when a check failed.
//
//     swift run HomeQuickStart [STATE-DIR]
//
// The devices and the home keep their state under STATE-DIR (default: a new directory under /tmp); the
// test PKI is the repository's fixtures/pki.

import Foundation
import MatterDevice
import MatterHome
import MatterOnboarding

let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let stateDirectory =
    CommandLine.arguments.dropFirst().first
    ?? NSTemporaryDirectory() + "home-quick-start-\(ProcessInfo.processInfo.processIdentifier)"
try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)

var passed = 0
var failed = 0

/// Records one check of what the samples did.
@MainActor func check(_ condition: Bool, _ what: String) {
    print(condition ? "check ok: \(what)" : "check FAILED: \(what)")
    if condition { passed += 1 } else { failed += 1 }
}

/// Waits (at most `seconds`) until `condition` holds: attributes follow the device through the home's
/// subscription, so a change made by a group command arrives a moment later.
func eventually(_ seconds: Double = 5, _ condition: () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return await condition()
}

// 1. The devices, in this process (`matter-emu device --type dimmable-light` does the same).
func startDevice(_ type: String) async throws -> VirtualDevice {
    var configuration = VirtualDeviceConfiguration(
        deviceType: type, storagePath: stateDirectory + "/\(type).sqlite",
        pkiDirectory: repository.appendingPathComponent("fixtures/pki").path)
    configuration.port = 0
    configuration.advertise = false
    return try await VirtualDevice.start(configuration)
}
let hallLight = try await startDevice("on-off-light")
let lamp = try await startDevice("dimmable-light")
let ceiling = try await startDevice("color-temperature-light")
let frontDoor = try await startDevice("door-lock")

// 2. Commissioning, one device at a time. Set-up is the only part that differs from the guides: the
// home is configured with the device's address (no DNS-SD here).
for (device, name) in [(hallLight, "Hall light"), (lamp, "Desk lamp"), (ceiling, "Ceiling"), (frontDoor, "Front door")]
{
    let qrCode = try SetupQRCode.encode(device.setupPayload)
    print("\(device.configuration.deviceType) on port \(device.port), QR code \(qrCode)")
    Home.configure {
        $0.stateDirectory = stateDirectory + "/home"
        $0.discovery = .none
        $0.commissioningAddress = "127.0.0.1:\(device.port)"
    }
    let home = try await Home.open()
    guard let structure = try await home.structures().first else {
        print("the home has no structure")
        exit(1)
    }
    try await commissionDevice(structure: structure, onboardingPayload: qrCode, named: name)
    await home.close()
}

// 3. The device-control guide's samples.
let home = try await Home.open()
guard let structure = try await home.structures().first else {
    print("the home has no structure")
    exit(1)
}
let devices = try await structure.devices()
check(devices.count == 4, "four devices commissioned (\(devices.map(\.name)))")
check(devices.allSatisfy { $0.room?.name == "Living room" }, "every device is in the Living room")
for device in devices {
    print("device \(device.id) \"\(device.name)\" in \(device.room?.name ?? "no room")")
    if let deviceType = await device.types.get(DimmableLightDeviceType.self),
        let onOffTraitTest = deviceType.traits[Matter.OnOffTrait.self],
        let levelControlTraitTest = deviceType.matterTraits.levelControlTrait
    {
        try await controlSamples(onOffTraitTest: onOffTraitTest, levelControlTraitTest: levelControlTraitTest)
        check(levelControlTraitTest.attributes.currentLevel == 127, "moveToLevel(127) set currentLevel")
        check(onOffTraitTest.attributes.onOff == false, "offWithEffect turned the lamp off")
        try await onOffTraitTest.toggle()
        check(onOffTraitTest.attributes.onOff == true, "toggle turned the lamp on")
    }
    await nullableSample(device: device)
    if let deviceType = await device.types.get(DoorLockDeviceType.self),
        let doorLockTraitTest = deviceType.matterTraits.doorLockTrait
    {
        try await updateSample(doorLockTraitTest: doorLockTraitTest)
        check(doorLockTraitTest.attributes.wrongCodeEntryLimit == 3, "update set wrongCodeEntryLimit to 3")
    }
}

// 4. Device groups: the lights and the lock as one group.
let group = try await structure.createDeviceGroup(name: "everything", devices: devices)
try await groupSamples(group: group)
let lampOnOff = await devices.first { $0.name == "Desk lamp" }?.types.get(DimmableLightDeviceType.self)?
    .matterTraits.onOffTrait
let lampLevel = await devices.first { $0.name == "Desk lamp" }?.types.get(DimmableLightDeviceType.self)?
    .matterTraits.levelControlTrait
let hallOnOff = await devices.first { $0.name == "Hall light" }?.types.get(OnOffLightDeviceType.self)?
    .matterTraits.onOffTrait
let ceilingColor = await devices.first { $0.name == "Ceiling" }?.types.get(ColorTemperatureLightDeviceType.self)?
    .matterTraits.colorControlTrait
check(
    await eventually { hallOnOff?.attributes.onOff == false },
    "the group's on() then off() left the on/off light (no level control) off")
check(
    await eventually { lampOnOff?.attributes.onOff == true && lampLevel?.attributes.currentLevel == 127 },
    "the group's moveToLevelWithOnOff(127) turned the lamp on at 127")
if let minMireds = ceilingColor?.attributes.colorTempPhysicalMinMireds,
    let maxMireds = ceilingColor?.attributes.colorTempPhysicalMaxMireds
{
    let midMireds = UInt16((UInt32(minMireds) + UInt32(maxMireds)) / 2)
    check(
        await eventually { ceilingColor?.attributes.colorTemperatureMireds == midMireds },
        "the group's moveToColorTemperature reached the ceiling light (\(midMireds) mireds)")
} else {
    check(false, "the ceiling light reports its colour-temperature range")
}
let part = await group.part(DimmableLightDeviceType.self)
check(part?.matterTraits.onOffTrait?.attributes.onOff == nil, "a group part does not populate onOff")
check(part?.matterTraits.onOffTrait?.supports(.toggle) == true, "a group part says which commands it supports")

await home.close()
await hallLight.stop()
await lamp.stop()
await ceiling.stop()
await frontDoor.stop()
print("HomeQuickStart: \(passed) checks passed, \(failed) failed")
exit(failed == 0 ? 0 : 1)
