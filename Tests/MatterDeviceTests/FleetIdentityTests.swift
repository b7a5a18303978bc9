import Foundation
import MatterCore
import MatterCredentials
import MatterCrypto
import MatterOnboarding
import MatterTestSupport
import Testing

@testable import MatterDevice

/// A sharded fleet's identities: a function of seed, shard and index, distinct across shards.
@Suite("FleetLayout: identities derived from seed, shard and index")
struct FleetIdentityTests {
    static func layout(seed: UInt64 = 42, shards: Int, count: Int) -> FleetLayout {
        FleetLayout(seed: seed, shards: shards, countPerShard: count)
    }

    @Test("the same seed, shard and index give the same identity, one at a time or a shard at once")
    func deterministic() throws {
        let layout = Self.layout(shards: 3, count: 50)
        let shard = try layout.identities(shard: 2)
        #expect(shard == (try layout.identities(shard: 2)))
        #expect(shard.count == 50)
        for index in [0, 17, 49] { #expect(try layout.identity(shard: 2, index: index) == shard[index]) }
        #expect(shard[17].globalIndex == 2 * 50 + 17)
        #expect(try shard[3].dacPrivateKey().publicKey == (try shard[3].dacPrivateKey().publicKey))
        // Another seed, another fleet.
        let other = try Self.layout(seed: 43, shards: 3, count: 50).identities(shard: 2)
        #expect(zip(shard, other).allSatisfy { $0.passcode != $1.passcode && $0.serialNumber != $1.serialNumber })
    }

    @Test("the derivation is pinned: codes computed by one version still open devices run by the next")
    func pinned() throws {
        let layout = Self.layout(seed: 7, shards: 2, count: 3)
        let first = try layout.identity(shard: 0, index: 0)
        #expect(first.passcode == 63_492_527)
        #expect(first.discriminator == 3840)
        #expect(first.serialNumber == "D260620FEA112F9B")
        #expect(first.uniqueID == "6B28215CB6C6B8BD9FB32450471DEBCD")
        let fourth = try layout.identity(shard: 1, index: 0)
        #expect(fourth.passcode == 68_009_425)
        #expect(fourth.discriminator == 512)
        #expect(fourth.port == 5543)
    }

    @Test("no two devices of any shard share a discriminator, passcode, port, serial number, unique ID or DAC serial")
    func distinctAcrossShards() throws {
        let layout = Self.layout(shards: 4, count: 1024)  // 4096 devices: every discriminator once
        let all = try (0..<4).flatMap { try layout.identities(shard: $0) }
        #expect(all.count == 4096)
        #expect(Set(all.map(\.discriminator)).count == all.count)
        #expect(Set(all.map(\.port)).count == all.count)
        #expect(Set(all.map(\.passcode)).count == all.count)
        #expect(Set(all.map(\.serialNumber)).count == all.count)
        #expect(Set(all.map(\.uniqueID)).count == all.count)
        #expect(Set(all.map(\.dacSerialNumber)).count == all.count)
        #expect(all.map(\.port).min() == 5540)
        #expect(all.map(\.port).max() == UInt16(5540 + 4095))
        // The first 16 devices of the fleet have distinct short discriminators (manual codes).
        #expect(Set(all.prefix(16).map { $0.discriminator >> 8 }).count == 16)
    }

    @Test("passcodes stay distinct past 4096 devices, where discriminators repeat")
    func passcodesPastDiscriminators() throws {
        let layout = Self.layout(seed: 7, shards: 10, count: 2000)
        let all = try (0..<10).flatMap { try layout.identities(shard: $0) }
        #expect(Set(all.map(\.passcode)).count == 20_000)
        #expect(Set(all.map(\.discriminator)).count == 4096)
    }

    @Test("every passcode is valid: in range and none of the spec's disallowed values")
    func validPasscodes() throws {
        let layout = Self.layout(seed: 1, shards: 5, count: 2000)
        for shard in 0..<5 {
            for identity in try layout.identities(shard: shard) {
                #expect(SetupPasscode.isValid(identity.passcode), "\(identity.passcode)")
            }
        }
        // The ranking under the permutation skips every disallowed value.
        let ranked = (11_111_105...11_111_115).map { PasscodePermutation.rank($0 - 1) }
        #expect(!ranked.contains(11_111_111))
        #expect(ranked.last == 11_111_116)
        #expect(PasscodePermutation.rank(PasscodePermutation.capacity - 1) == SetupPasscode.validRange.upperBound)
        for passcode in SetupPasscode.disallowed.sorted() {
            let start = Int(passcode) - 12
            #expect((start..<(start + 24)).allSatisfy { SetupPasscode.isValid(PasscodePermutation.rank($0)) })
        }
    }

    @Test("ports: disjoint per shard, or the same in every shard; 0 leaves them to the kernel")
    func ports() throws {
        var layout = Self.layout(shards: 3, count: 4)
        layout.basePort = 20_000
        #expect(try layout.identities(shard: 2).map(\.port) == [20_008, 20_009, 20_010, 20_011])
        layout.ports = .same
        #expect(try layout.identities(shard: 2).map(\.port) == [20_000, 20_001, 20_002, 20_003])
        layout.basePort = 0
        #expect(try layout.identities(shard: 1).map(\.port) == [0, 0, 0, 0])
    }

    @Test("a layout that cannot run says why")
    func problems() throws {
        var layout = Self.layout(shards: 100, count: 1000)
        #expect(layout.problem?.contains("no room for 100000 ports") == true)
        layout.ports = .same
        #expect(layout.problem == nil)
        #expect(Self.layout(shards: 0, count: 1).problem != nil)
        #expect(Self.layout(shards: 1, count: 0).problem != nil)
        var huge = Self.layout(shards: 2, count: 60_000_000)
        huge.basePort = 0
        #expect(huge.problem?.contains("passcodes") == true)
        #expect(throws: DeviceError.self) { try layout.identity(shard: 100, index: 0) }
        #expect(throws: DeviceError.self) { try layout.identity(shard: 0, index: 1000) }
    }

    @Test("a fleet started as a shard runs the derived identities, DAC key and serial included")
    func fleetRunsItsShard() async throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-shard")
        var layout = Self.layout(seed: 99, shards: 2, count: 2)
        layout.basePort = 0
        var configuration = Fleet.Configuration(
            groups: [Fleet.Group(type: "on-off-light", count: 2)], storagePath: temporary.file("fleet.sqlite"),
            pkiDirectory: TestPaths.pkiDirectory)
        configuration.advertise = false
        configuration.layout = layout
        configuration.shard = 1
        let fleet = try await Fleet.start(configuration)
        let expected = try layout.identities(shard: 1)
        for (device, identity) in zip(fleet.devices, expected) {
            #expect(device.configuration.passcode == identity.passcode)
            #expect(device.configuration.discriminator == identity.discriminator)
            #expect(device.configuration.serialNumber == identity.serialNumber)
            #expect(device.configuration.uniqueID == identity.uniqueID)
            let attestation = try #require(device.configuration.attestation)
            #expect(attestation.dacKey.publicKey == (try identity.dacPrivateKey().publicKey))
            let serialField: [UInt8] = [0x02, 0x08] + identity.dacSerialNumber
            #expect(
                attestation.dac.derEncoded.indices.contains { index in
                    attestation.dac.derEncoded[index...].starts(with: serialField)
                })
        }
        await fleet.stop()

        configuration.groups = [Fleet.Group(type: "on-off-light", count: 3)]
        await #expect(throws: DeviceError.invalidConfiguration("the groups hold 3 devices, the layout's shards 2 each"))
        {
            try await Fleet.start(configuration)
        }
    }
}
