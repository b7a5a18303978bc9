/// SplitMix64 (Steele, Lea, Flood 2014): a tiny deterministic generator, so randomized tests replay
/// exactly from their seed on every platform and Swift version.
public struct SplitMix64: RandomNumberGenerator {
    /// The generator's state (the seed, advanced once per number).
    public private(set) var state: UInt64

    /// A generator starting at `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (bound > 0); the modulo bias is irrelevant for test data.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True with probability 1/`oneIn`.
    public mutating func chance(_ oneIn: Int) -> Bool { below(oneIn) == 0 }
}
