// Starts a virtual dimmable light on loopback, commissions it with the Home API by its QR code (at its
// address: no DNS-SD needed), then runs the device-control guide's samples on it.
//
//     swift run HomeQuickStart [STATE-DIR]
//
// The light and the home keep their state under STATE-DIR (default: a new directory under /tmp); the
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

// 1. A light, in this process (`matter-emu device --type dimmable-light` does the same).
var lightConfiguration = VirtualDeviceConfiguration(
    deviceType: "dimmable-light", storagePath: stateDirectory + "/light.sqlite",
    pkiDirectory: repository.appendingPathComponent("fixtures/pki").path)
lightConfiguration.port = 0
lightConfiguration.advertise = false
let light = try await VirtualDevice.start(lightConfiguration)
let qrCode = try SetupQRCode.encode(light.setupPayload)
print("light on port \(light.port), QR code \(qrCode)")

// 2. The home: set-up is the only part that differs from the guides.
Home.configure {
    $0.stateDirectory = stateDirectory + "/home"
    $0.discovery = .none
    $0.commissioningAddress = "127.0.0.1:\(light.port)"
}
let home = try await Home.open()
guard let structure = try await home.structures().first else {
    print("the home has no structure")
    exit(1)
}

// 3. The commissioning guide's flow.
try await commissionDevice(structure: structure, onboardingPayload: qrCode)

// 4. The device-control guide's samples.
for device in try await structure.devices() {
    print("device \(device.id) \"\(device.name)\" in \(device.room?.name ?? "no room")")
    if let deviceType = await device.types.get(DimmableLightDeviceType.self),
        let onOffTraitTest = deviceType.traits[Matter.OnOffTrait.self],
        let levelControlTraitTest = deviceType.matterTraits.levelControlTrait
    {
        try await controlSamples(onOffTraitTest: onOffTraitTest, levelControlTraitTest: levelControlTraitTest)
        await nullableSample(device: device)
    }
}
let group = try await structure.createDeviceGroup(name: "everything", devices: try await structure.devices())
try await groupSamples(group: group)

await home.close()
await light.stop()
