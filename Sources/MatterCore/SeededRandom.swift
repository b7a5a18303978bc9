/// A small, fast pseudo-random generator (SplitMix64) for protocol randomness that need not be
/// secret (MRP jitter, message-counter starts, exchange IDs) and for reproducible tests. Seeded
/// from the system's generator unless a seed is given. Not for keys: use MatterCrypto's random.
package struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64? = nil) {
        var system = SystemRandomNumberGenerator()
        state = seed ?? system.next()
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A message counter start: uniform in [1, 2^28] (spec 4.6.1.1).
    package mutating func initialMessageCounter() -> UInt32 {
        UInt32(truncatingIfNeeded: next() & 0x0FFF_FFFF) + 1
    }

    /// True with probability `p` (0...1).
    package mutating func chance(_ p: Double) -> Bool {
        p > 0 && Double(next() >> 11) / Double(1 << 53) < p
    }
}
