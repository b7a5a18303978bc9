import MatterCrypto
import MatterOnboarding

/// A keyed one-to-one map from an index (0, 1, 2, ...) to a valid setup passcode: index `g` is ranked
/// to the `g`-th valid passcode in ascending order (``SetupPasscode/disallowed`` skipped), which a
/// keyed 28-bit Feistel permutation then moves, walking its cycle until it lands on a valid passcode
/// again. A permutation walked that way stays one-to-one on the valid passcodes, so two indexes never
/// share a passcode while there are passcodes left (99,999,988 of them).
struct PasscodePermutation: Sendable {
    /// How many indexes have a passcode of their own: every valid passcode once.
    static let capacity = Int(SetupPasscode.validRange.upperBound) - SetupPasscode.disallowed.count

    private static let rounds = 6
    private static let halfBits: UInt64 = 14
    private static let halfMask: UInt64 = (1 << halfBits) - 1
    private static let sortedDisallowed = SetupPasscode.disallowed.sorted()

    private let roundKeys: [UInt64]

    /// Round keys from HKDF-SHA256 over the seed, so another seed gives another permutation.
    init(seed: UInt64) throws(CryptoError) {
        let bytes = try HKDFSHA256.deriveKey(
            inputKeyMaterial: FleetLayout.seedMaterial(seed), salt: [],
            info: Array("matter-emu fleet passcodes".utf8), outputByteCount: 8 * Self.rounds)
        roundKeys = (0..<Self.rounds).map { round in
            bytes[(8 * round)..<(8 * round + 8)].reduce(0) { $0 << 8 | UInt64($1) }
        }
    }

    /// The passcode of index `index` (0 ..< ``capacity``).
    func passcode(of index: Int) -> UInt32 {
        var value = UInt64(Self.rank(index))
        repeat {
            value = permute(value)
        } while !SetupPasscode.isValid(UInt32(truncatingIfNeeded: value))  // below 2^28: never truncated
        return UInt32(value)
    }

    /// The `index`-th valid passcode in ascending order.
    static func rank(_ index: Int) -> UInt32 {
        var candidate = UInt32(index) + SetupPasscode.validRange.lowerBound
        for skipped in sortedDisallowed where skipped <= candidate { candidate += 1 }
        return candidate
    }

    /// The Feistel permutation of 0 ..< 2^28.
    private func permute(_ value: UInt64) -> UInt64 {
        var left = value >> Self.halfBits
        var right = value & Self.halfMask
        for key in roundKeys {
            (left, right) = (right, left ^ (Self.mix(right ^ key) & Self.halfMask))
        }
        return left << Self.halfBits | right
    }

    /// SplitMix64's finaliser: every input bit moves every output bit.
    private static func mix(_ input: UInt64) -> UInt64 {
        var z = input &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
