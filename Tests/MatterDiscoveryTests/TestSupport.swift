import MatterTestSupport

/// A deterministic generator for name tests: returns the given values in turn, then repeats the last.
struct FixedRandom: RandomNumberGenerator {
    var values: [UInt64]
    mutating func next() -> UInt64 {
        guard values.count > 1 else { return values.first ?? 0 }
        return values.removeFirst()
    }
}

/// The digest's Compressed Fabric ID vector and node ID (dnssd.md §3).
enum DigestVector {
    static let compressedFabricID: UInt64 = 0x87E1_B004_E235_A130
    static let nodeID: UInt64 = 0x8FC7_7724_01CD_0696
    static let instance = "87E1B004E235A130-8FC7772401CD0696"
}
