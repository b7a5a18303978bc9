// The quick start: starts a virtual on/off light, a dimmable light, a colour-temperature light and a
// door lock on loopback, in this process; commissions each through the Home API by its QR code (at its
// address: no DNS-SD needed), with the commissioning guide's sample; then runs the device-control
// guide's samples on them and prints what the devices report. Tests/HomeQuickStartTests checks what
// each sample did.
//
//     swift run HomeQuickStart [STATE-DIR]
//
// The devices and the home keep their state under STATE-DIR (default: a new directory under /tmp); the
// test PKI is the repository's fixtures/pki.

import Foundation
import HomeQuickStartSamples
import MatterHome

let stateDirectory =
    CommandLine.arguments.dropFirst().first
    ?? NSTemporaryDirectory() + "home-quick-start-\(ProcessInfo.processInfo.processIdentifier)"

// 1. The devices, in this process, and commissioning, one device at a time.
let quickStart = try await QuickStart.start(stateDirectory: stateDirectory)
try await quickStart.commissionAll()

// 2. The device-control guide's samples, on every device that has the traits they use.
let home = try await quickStart.openHome()
guard let structure = try await home.structures().list().first else { throw QuickStartError.noStructure }
let devices = try await structure.devices().list().sorted { $0.name < $1.name }
for device in devices {
    print("device \(device.id) \"\(device.name)\" in \(device.room?.name ?? "no room")")
    if let lamp = await device.types.get(DimmableLightDeviceType.self),
        let onOff = lamp.traits[Matter.OnOffTrait.self], let level = lamp.matterTraits.levelControlTrait
    {
        try await controlSamples(onOffTraitTest: onOff, levelControlTraitTest: level)
    }
    await nullableSample(device: device)
    if let lock = await device.types.get(DoorLockDeviceType.self)?.matterTraits.doorLockTrait {
        try await updateSample(doorLockTraitTest: lock)
    }
}

// 3. Device groups: the lights and the lock as one group.
let group = try await structure.createDeviceGroup(name: "everything", devices: devices)
try await groupSamples(group: group)

let lamp = await devices.first { $0.name == "Desk lamp" }?.types.get(DimmableLightDeviceType.self)
print(
    "Desk lamp: on \(String(describing: lamp?.matterTraits.onOffTrait?.attributes.onOff)),"
        + " level \(String(describing: lamp?.matterTraits.levelControlTrait?.attributes.currentLevel))")
await home.close()
await quickStart.stop()
print("HomeQuickStart: \(devices.count) devices commissioned and driven by the guides' samples")
