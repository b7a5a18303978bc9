package import MatterCore

/// The tests' deterministic generator: MatterCore's `SeededRandom`, which is SplitMix64 (Steele, Lea,
/// Flood 2014), so randomized tests replay exactly from their seed on every platform and Swift
/// version, and the reference-output test checks the generator the protocol code uses.
package typealias SplitMix64 = SeededRandom

extension SeededRandom {
    /// A number in `0..<bound` (bound > 0); the modulo bias is irrelevant for test data.
    package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True with probability 1/`oneIn`.
    package mutating func chance(oneIn: Int) -> Bool { below(oneIn) == 0 }
}
