import Foundation
import MatterDevice
import MatterTestSupport
import MatterTransport
import Testing

@Suite("Fleet: descriptors for every device's socket, checked before any device starts")
struct FleetDescriptorLimitTests {
    @Test("one descriptor per device and a reserve, saturating")
    func descriptorsNeeded() {
        #expect(Fleet.descriptorsNeeded(devices: []) == Fleet.descriptorReserve)
        #expect(Fleet.descriptorsNeeded(devices: [10_000]) == 10_000 + Fleet.descriptorReserve)
        #expect(Fleet.descriptorsNeeded(devices: [600, 400]) == 1000 + Fleet.descriptorReserve)
        #expect(Fleet.descriptorsNeeded(devices: [Int.max, 5]) == Int.max)
    }

    @Test("a fleet larger than the hard limit allows is refused before it touches its state file")
    func tooLargeAFleetIsRefusedUpFront() async throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-fleet-limit")
        let path = temporary.file("fleet.sqlite")
        // Linux caps the hard limit at fs.nr_open (at most 2^30), so two billion never fit.
        let count = 2_000_000_000
        let hard = try DescriptorLimit.current().hard
        try #require(UInt64(count) > hard)
        let configuration = Fleet.Configuration(
            groups: [Fleet.Group(type: "on-off-light", count: count)], storagePath: path,
            pkiDirectory: TestPaths.pkiDirectory)
        await #expect(
            throws: DeviceError.descriptorLimit(
                .hardLimitTooLow(needed: UInt64(count + Fleet.descriptorReserve), hardLimit: hard))
        ) {
            _ = try await Fleet.start(configuration)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + ".lock"))
    }
}
