// The quick start's set-up, the only part that differs from the guides: the devices run in this
// process on loopback (what `matter-emu device --type dimmable-light` does in its own), and each home
// that commissions is opened with the device's address as `commissioningAddress` (no DNS-SD here).

import Foundation
import MatterDevice
import MatterHome
import MatterOnboarding

/// Four virtual devices running in this process on loopback UDP (an on/off light, a dimmable light, a
/// colour-temperature light and a door lock), the names the commissioning sample gives them, and the
/// state directory where they and the home keep their state.
public struct QuickStart: Sendable {
    /// The directory under which the devices (`<type>.sqlite`) and the home (`home/`) keep their state.
    public let stateDirectory: String
    /// The on/off light, named "Hall light".
    public let hallLight: VirtualDevice
    /// The dimmable light, named "Desk lamp".
    public let lamp: VirtualDevice
    /// The colour-temperature light, named "Ceiling".
    public let ceiling: VirtualDevice
    /// The door lock, named "Front door".
    public let frontDoor: VirtualDevice

    /// Each device with the name the commissioning sample gives it, in commissioning order.
    public var namedDevices: [(device: VirtualDevice, name: String)] {
        [(hallLight, "Hall light"), (lamp, "Desk lamp"), (ceiling, "Ceiling"), (frontDoor, "Front door")]
    }

    /// The home's state directory.
    public var homeDirectory: String { stateDirectory + "/home" }

    /// The repository's test attestation credentials (`fixtures/pki`), found relative to this source file.
    public static var pkiDirectory: String {
        var repository = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { repository.deleteLastPathComponent() }
        return repository.appendingPathComponent("fixtures/pki").path
    }

    /// Starts the four devices (commissionable, on free loopback ports, not advertised) with their state
    /// under `stateDirectory`, which is created if needed.
    public static func start(stateDirectory: String) async throws -> QuickStart {
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        return QuickStart(
            stateDirectory: stateDirectory,
            hallLight: try await startDevice("on-off-light", in: stateDirectory),
            lamp: try await startDevice("dimmable-light", in: stateDirectory),
            ceiling: try await startDevice("color-temperature-light", in: stateDirectory),
            frontDoor: try await startDevice("door-lock", in: stateDirectory))
    }

    /// Starts one more device of `type` (a device-type name of `matter-emu device --type`), its state
    /// in `stateDirectory/<name>.sqlite`.
    public static func startDevice(_ type: String, in stateDirectory: String, name: String? = nil) async throws
        -> VirtualDevice
    {
        var configuration = VirtualDeviceConfiguration(
            deviceType: type, storagePath: stateDirectory + "/\(name ?? type).sqlite", pkiDirectory: pkiDirectory)
        configuration.port = 0
        configuration.advertise = false
        return try await VirtualDevice.start(configuration)
    }

    /// The home's configuration: its state directory, no DNS-SD, and (when commissioning) the device's
    /// loopback address.
    public static func homeConfiguration(directory: String, commissioning device: VirtualDevice? = nil)
        -> Home.Configuration
    {
        var configuration = Home.Configuration(stateDirectory: directory, discovery: .none)
        configuration.commissioningAddress = device.map { "127.0.0.1:\($0.port)" }
        return configuration
    }

    /// Commissions `device` into the home at `directory` with the commissioning sample
    /// (``commissionDevice(structure:onboardingPayload:named:)``), given `onboardingPayload` (by
    /// default the device's QR code): opens the home at the device's address, runs the sample, closes it.
    public static func commission(
        _ device: VirtualDevice, named name: String, homeDirectory directory: String, onboardingPayload: String? = nil
    ) async throws {
        let payload = try onboardingPayload ?? SetupQRCode.encode(device.setupPayload)
        let home = try await Home.open(configuration: homeConfiguration(directory: directory, commissioning: device))
        do {
            guard let structure = try await home.structures().list().first else { throw QuickStartError.noStructure }
            try await commissionDevice(structure: structure, onboardingPayload: payload, named: name)
        } catch {
            await home.close()
            throw error
        }
        await home.close()
    }

    /// The devices commissioned into the home at `directory` (opens it, lists them, closes it).
    public static func homeDevices(directory: String) async throws -> [HomeDevice] {
        let home = try await Home.open(configuration: homeConfiguration(directory: directory))
        do {
            let devices = try await home.devices().list().sorted { $0.name < $1.name }
            await home.close()
            return devices
        } catch {
            await home.close()
            throw error
        }
    }

    /// Commissions the four devices, one at a time, into the home (``homeDirectory``).
    public func commissionAll() async throws {
        for (device, name) in namedDevices {
            try await Self.commission(device, named: name, homeDirectory: homeDirectory)
        }
    }

    /// Opens the home (no commissioning address: it reaches its devices where they last answered).
    public func openHome() async throws -> Home {
        try await Home.open(configuration: Self.homeConfiguration(directory: homeDirectory))
    }

    /// Stops the four devices.
    public func stop() async {
        for (device, _) in namedDevices { await device.stop() }
    }
}
