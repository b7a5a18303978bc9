import MatterClusters
import MatterCore
import MatterTLV
import MatterTestSupport
import Testing

@testable import MatterDevice

/// SerialNumber and UniqueID: unique per device (fleet members included), stable across restarts,
/// new after a factory reset. Controllers key their device registries on them (Home Assistant on the
/// serial number), so two devices of one type must never share them.
@Suite("Device identity")
struct DeviceIdentityTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    static func identity(_ device: VirtualDevice) async -> (serial: TLVValue?, unique: TLVValue?) {
        (
            await device.deviceValue(0, .basicInformation, .BasicInformation.serialNumber),
            await device.deviceValue(0, .basicInformation, .BasicInformation.uniqueID)
        )
    }

    @Test("two devices differ; a restart keeps the identity; a factory reset makes a new one")
    func uniqueStableAndReset() async throws {
        var first = try await VirtualDevices.start("on-off-light", in: directory, name: "first")
        let second = try await VirtualDevices.start("on-off-light", in: directory, name: "second")
        let a = await Self.identity(first)
        let b = await Self.identity(second)
        guard case .utf8(let serial)? = a.serial, case .utf8(let unique)? = a.unique else {
            Issue.record("no SerialNumber/UniqueID strings: \(a)")
            return
        }
        #expect(serial.count <= 32 && unique.count <= 32 && !serial.isEmpty)
        #expect(serial != unique)
        #expect(a.serial != b.serial)
        #expect(a.unique != b.unique)

        await first.stop()
        first = try await VirtualDevices.start("on-off-light", in: directory, name: "first")
        #expect(await Self.identity(first) == a)

        await first.stop()
        var reset = first.configuration
        reset.factoryReset = true
        first = try await VirtualDevice.start(reset)
        let renewed = await Self.identity(first)
        #expect(renewed.serial != a.serial)
        #expect(renewed.unique != a.unique)
        await first.stop()
        await second.stop()
    }

    @Test("every member of a fleet has its own SerialNumber and UniqueID")
    func fleetMembersDiffer() async throws {
        var configuration = Fleet.Configuration(
            groups: [Fleet.Group(type: "on-off-plug", count: 4)], storagePath: directory.path + "/fleet.sqlite",
            pkiDirectory: TestPaths.pkiDirectory)
        configuration.basePort = 0
        configuration.advertise = false
        let fleet = try await Fleet.start(configuration)
        var serials: Set<TLVValue> = []
        var uniques: Set<TLVValue> = []
        for device in fleet.devices {
            let identity = await Self.identity(device)
            if let serial = identity.serial { serials.insert(serial) }
            if let unique = identity.unique { uniques.insert(unique) }
        }
        #expect(serials.count == 4)
        #expect(uniques.count == 4)
        await fleet.stop()
    }
}
