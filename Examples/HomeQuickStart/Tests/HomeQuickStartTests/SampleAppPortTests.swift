import Foundation
import HomeQuickStartSamples
import MatterDevice
import MatterHome
import Testing

/// The ports of Google's iOS sample app and of the structure, monitoring, events, error-handling, batching
/// and decommissioning guides (Sources/HomeQuickStartSamples/SampleAppPorts.swift), on a fan, a thermostat
/// and a door lock in this process, commissioned over loopback UDP into a home of their own.
@Suite("Ports of the Home API sample app and guides", .serialized)
struct SampleAppPortTests {
    /// The three devices commissioned into a new home, and the home open; `body` runs on them.
    func withHome(
        _ body: (Home, Structure, [String: HomeDevice], [String: VirtualDevice]) async throws -> Void
    ) async throws {
        let directory = NSTemporaryDirectory() + "home-sample-app-ports-\(UInt64.random(in: 0...UInt64.max))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var virtual: [String: VirtualDevice] = [:]
        for (type, name) in [("fan", "Fan"), ("thermostat", "Thermostat"), ("door-lock", "Back door")] {
            let device = try await QuickStart.startDevice(type, in: directory)
            virtual[name] = device
            try await QuickStart.commission(device, named: name, homeDirectory: directory + "/home")
        }
        let home = try await Home.open(configuration: QuickStart.homeConfiguration(directory: directory + "/home"))
        do {
            let structure = try #require(try await loadStructures(home).first)
            let devices = Dictionary(
                try await structure.devices().list().map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            try await body(home, structure, devices, virtual)
        } catch {
            await home.close()
            for device in virtual.values { await device.stop() }
            throw error
        }
        await home.close()
        for device in virtual.values { await device.stop() }
    }

    @Test("fan, door lock and thermostat controls; monitoring, events, a batch, rooms, errors, decommissioning")
    func ports() async throws {
        try await withHome { home, structure, devices, virtual in
            let fanDevice = try #require(devices["Fan"])
            #expect(fanDevice.types.contains(FanDeviceType.self))
            let fan = try #require(await fanDevice.types.get(FanDeviceType.self))
            let wasOn = fanIsOn(fan)
            try await toggleFan(fan)
            #expect(fanIsOn(fan) != wasOn)
            try await setFanSpeed(fan, to: 0.5)
            #expect(fan.matterTraits.fanControlTrait?.attributes.percentSetting == 50)
            // Monitoring: a change made by the device's own panel (the control plane) reaches the stream.
            let before = fan.matterTraits.fanControlTrait?.attributes.fanMode
            async let changed = nextFanMode(of: fanDevice, after: before)
            try await Task.sleep(for: .milliseconds(200))
            try await toggleFan(fan)
            #expect(await changed != before)

            let lock = try #require(await devices["Back door"]?.types.get(DoorLockDeviceType.self))
            #expect(!requiresPINCode(lock))
            let wasLocked = lock.matterTraits.doorLockTrait?.attributes.lockState == .locked
            async let operation = nextLockOperation(lock)
            try await Task.sleep(for: .milliseconds(200))
            try await toggleLock(lock, pinCode: nil)
            #expect(try await operation == (wasLocked ? .unlock : .lock))
            #expect((lock.matterTraits.doorLockTrait?.attributes.lockState == .locked) != wasLocked)
            try await toggleLock(lock, pinCode: nil)
            #expect((lock.matterTraits.doorLockTrait?.attributes.lockState == .locked) == wasLocked)
            #expect(doorStateLabel(lock.matterTraits.doorLockTrait?.attributes.doorState) != "")

            let thermostat = try #require(
                await devices["Thermostat"]?.types.get(ThermostatDeviceType.self)?.matterTraits.thermostatTrait)
            #expect(thermostat.supportedSystemModes.isSuperset(of: [.off, .heat, .cool]))
            #expect(
                !thermostat.isValidHeatingSetpointUpdate(heatSetPointCentiDegrees: thermostat.maxHeatSetpointLimit + 1))
            #expect(thermostat.isValidHeatingSetpointUpdate(heatSetPointCentiDegrees: 2150))
            try await thermostat.setOccupiedHeatingPoint(to: 2150)
            #expect(thermostat.attributes.occupiedHeatingSetpoint == 2150)

            #expect(try await lockUpForTheNight(fan: fan, lock: lock, in: home) == [true, true])
            #expect(lock.matterTraits.doorLockTrait?.attributes.lockState == .locked)

            let room = try await furnish(structure, room: "Bedroom", device: fanDevice, deviceName: "Ceiling fan")
            let moved = try #require(try await structure.devices().list().first { $0.id == fanDevice.id })
            #expect(moved.name == "Ceiling fan" && moved.roomID == room.id)
            try await structure.deleteRoom(room)
            #expect(await moveLight(moved, to: room, in: structure).hasPrefix("not found"))

            let thermostatDevice = try #require(devices["Thermostat"])
            #expect(try await removeDevice(thermostatDevice))
            #expect(await virtual["Thermostat"]?.fabrics().isEmpty == true)
            #expect(try await structure.devices().list().map(\.name).sorted() == ["Back door", "Ceiling fan"])
        }
    }
}
