import MatterCore
import MatterCrypto
import MatterOnboarding

/// A fleet split into shards (processes, pods), every device's identity a function of the seed, its
/// shard and its index in the shard, so that anyone can compute every code without asking a shard.
///
/// Device `index` of shard `shard` has the global index `g = shard × countPerShard + index`, and:
/// - discriminator: ``Fleet/discriminator(ofDevice:base:)`` of `g`: distinct across the whole fleet
///   while `shards × countPerShard ≤ 4096` (a discriminator has 12 bits; past that they repeat, and a
///   commissioner tells devices apart by the passcode);
/// - passcode: a keyed permutation of the valid passcodes at `g` (``PasscodePermutation``): distinct
///   across the whole fleet (up to 99,999,988 devices), never one of the spec's disallowed values;
/// - port: `basePort + g` (``PortLayout/disjoint``: every device of every shard its own port, so shards
///   may share a host) or `basePort + index` (``PortLayout/same``: for shards that each have an address of
///   their own, as pods do);
/// - serial number, unique ID, DAC key and DAC serial number: HKDF-SHA256 of the seed over
///   `"device <shard>|<index>"`.
public struct FleetLayout: Sendable, Equatable {
    /// How ports are spread over the shards.
    public enum PortLayout: String, Sendable, CaseIterable {
        /// `basePort + g`: no two devices of the fleet share a port.
        case disjoint
        /// `basePort + index`: every shard uses the same ports.
        case same
    }

    public var seed: UInt64
    public var shards: Int
    public var countPerShard: Int
    /// First UDP port (0: every device picks a free port, so ports are not computable).
    public var basePort: UInt16 = 5540
    public var baseDiscriminator: UInt16 = 3840
    public var ports = PortLayout.disjoint

    public init(seed: UInt64, shards: Int, countPerShard: Int) {
        self.seed = seed
        self.shards = shards
        self.countPerShard = countPerShard
    }

    /// The number of devices in every shard together.
    public var totalCount: Int { shards * countPerShard }

    /// Why this layout cannot be run, in words for the user; nil when it can.
    public var problem: String? {
        guard shards >= 1 else { return "a fleet needs at least one shard" }
        guard countPerShard >= 1 else { return "a shard needs at least one device" }
        guard shards <= PasscodePermutation.capacity / countPerShard else {
            return "\(shards) shards of \(countPerShard) devices need more passcodes than there are "
                + "(\(PasscodePermutation.capacity))"
        }
        guard basePort != 0 else { return nil }
        let ports = ports == .disjoint ? totalCount : countPerShard
        if Int(basePort) + ports > 65_536 {
            return "base port \(basePort) leaves no room for \(ports) ports"
                + (self.ports == .disjoint ? " (the disjoint layout gives every device of every shard a port)" : "")
        }
        return nil
    }

    /// The identity of device `index` of shard `shard`.
    public func identity(shard: Int, index: Int) throws(DeviceError) -> FleetIdentity {
        if let problem { throw .invalidConfiguration(problem) }
        guard (0..<shards).contains(shard), (0..<countPerShard).contains(index) else {
            throw .invalidConfiguration(
                "there is no device \(index) of shard \(shard) in \(shards) shards of \(countPerShard)")
        }
        do {
            return try identity(shard: shard, index: index, permutation: try PasscodePermutation(seed: seed))
        } catch {
            throw .startup("deriving the identity of device \(index) of shard \(shard): \(error)")
        }
    }

    /// Every identity of shard `shard`, in index order (the passcode permutation keyed once).
    public func identities(shard: Int) throws(DeviceError) -> [FleetIdentity] {
        if let problem { throw .invalidConfiguration(problem) }
        guard (0..<shards).contains(shard) else {
            throw .invalidConfiguration("there is no shard \(shard) of \(shards) (shards are 0...\(shards - 1))")
        }
        do {
            let permutation = try PasscodePermutation(seed: seed)
            var result: [FleetIdentity] = []
            result.reserveCapacity(countPerShard)
            for index in 0..<countPerShard {
                result.append(try identity(shard: shard, index: index, permutation: permutation))
            }
            return result
        } catch {
            throw .startup("deriving the identities of shard \(shard): \(error)")
        }
    }

    private func identity(shard: Int, index: Int, permutation: PasscodePermutation) throws(CryptoError)
        -> FleetIdentity
    {
        let bytes = try HKDFSHA256.deriveKey(
            inputKeyMaterial: Self.seedMaterial(seed), salt: [], info: Array("device \(shard)|\(index)".utf8),
            outputByteCount: 64)
        let global = shard * countPerShard + index
        let port: UInt16
        if basePort == 0 {
            port = 0
        } else {
            port = basePort + UInt16(ports == .disjoint ? global : index)
        }
        var dacSerial = Array(bytes[24..<32])
        dacSerial[0] = (dacSerial[0] & 0x3F) | 0x40  // a positive DER INTEGER of exactly 8 bytes
        return FleetIdentity(
            shard: shard, index: index, globalIndex: global,
            discriminator: Fleet.discriminator(ofDevice: global, base: baseDiscriminator),
            passcode: permutation.passcode(of: global), port: port,
            serialNumber: Hex.encode(Array(bytes[0..<8])).uppercased(),
            uniqueID: Hex.encode(Array(bytes[8..<24])).uppercased(), dacSerialNumber: dacSerial,
            dacKeySeed: Array(bytes[32..<64]))
    }

    /// The HKDF input keying material of a seed.
    static func seedMaterial(_ seed: UInt64) -> [UInt8] { Array("matter-emu fleet seed \(seed)".utf8) }
}
