import MatterCore
import MatterTLV
import MatterTestSupport
import Testing

@Suite("Seeded randomized round trips")
struct RandomRoundTripTests {
    static let seed: UInt64 = 0x4D61_7474_6572_544C  // "MatterTL"
    static let count = 3000

    @Test("SplitMix64 matches its reference output")
    func prngReference() {
        var rng = SplitMix64(seed: 0)
        #expect(rng.next() as UInt64 == 0xE220_A839_7B1D_CDAF)
        #expect(rng.next() as UInt64 == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test("encode → decode gives the model back; decode → encode is a fixed point")
    func roundTrip() throws {
        var generator = RandomTLV(seed: Self.seed)
        var reference = ReferenceTLVEncoder(seed: 0, widen: false)
        var coverage = Coverage()
        for index in 0..<Self.count {
            let element = generator.element()
            coverage.record(element)
            let bytes = element.encoded()
            let start = reference.bytes.count
            reference.write(element)
            #expect(bytes[...] == reference.bytes[start...], "writer not minimal for element \(index)")
            let decoded = try TLVElement.decode(bytes)
            #expect(decoded == element, "element \(index): \(hexString(bytes))")
            #expect(decoded.encoded() == bytes, "element \(index)")
            #expect(TLVPrettyPrinter.format(bytes: bytes) == element.prettyDescription, "element \(index)")
        }
        #expect(coverage.missing.isEmpty, "never generated: \(coverage.missing.sorted())")
    }

    @Test("non-minimal widths decode to the same model and re-encode minimally")
    func wideEncodings() throws {
        var generator = RandomTLV(seed: Self.seed ^ 0xFF)
        var wide = ReferenceTLVEncoder(seed: Self.seed ^ 0xAA, widen: true)
        var sawLonger = false
        for index in 0..<Self.count {
            let element = generator.element()
            let start = wide.bytes.count
            wide.write(element)
            let wideBytes = Array(wide.bytes[start...])
            let minimal = element.encoded()
            sawLonger = sawLonger || wideBytes.count > minimal.count
            let decoded = try TLVElement.decode(wideBytes)
            #expect(decoded == element, "element \(index): \(hexString(wideBytes))")
            #expect(decoded.encoded() == minimal, "element \(index)")
        }
        #expect(sawLonger)
    }

    @Test("truncating a valid encoding anywhere throws, never traps")
    func truncations() {
        var generator = RandomTLV(seed: Self.seed ^ 0x55, maxDepth: 3)
        for _ in 0..<200 {
            let bytes = generator.element().encoded()
            for cut in 0..<bytes.count {
                #expect(throws: TLVError.self) { try TLVElement.decode(Array(bytes[..<cut])) }
            }
        }
    }

    @Test("random byte strings decode or throw, never trap")
    func garbage() throws {
        var rng = SplitMix64(seed: Self.seed ^ 0x33)
        var decoded = 0
        for _ in 0..<20_000 {
            let bytes = (0..<rng.below(12)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            if let element = try? TLVElement.decode(bytes) {
                decoded += 1
                #expect(try TLVElement.decode(element.encoded()) == element)
            }
        }
        #expect(decoded > 0)
    }
}

/// Which value types and tag forms a run produced, so a degenerate generator fails the test.
private struct Coverage {
    var seen: Set<String> = []

    static let all: Set<String> = [
        "signedInteger", "unsignedInteger", "boolean", "float", "double", "utf8String", "octetString", "null",
        "structure", "array", "list", "anonymous", "context", "common2", "common4", "implicit2", "implicit4", "fq6",
        "fq8",
        "length2",
    ]

    var missing: Set<String> { Self.all.subtracting(seen) }

    mutating func record(_ element: TLVElement) {
        seen.insert(Self.name(element.type))
        switch element.tag {
        case .anonymous: seen.insert("anonymous")
        case .context: seen.insert("context")
        case .commonProfile(let n): seen.insert(n > 0xFFFF ? "common4" : "common2")
        case .implicitProfile(let n): seen.insert(n > 0xFFFF ? "implicit4" : "implicit2")
        case .fullyQualified(_, _, let n): seen.insert(n > 0xFFFF ? "fq8" : "fq6")
        }
        if let count = element.bytes?.count ?? element.string.map({ $0.utf8.count }), count > 255 {
            seen.insert("length2")
        }
        for member in element.members ?? [] { record(member) }
    }

    static func name(_ type: TLVElementType) -> String {
        switch type {
        case .signedInteger: "signedInteger"
        case .unsignedInteger: "unsignedInteger"
        case .boolean: "boolean"
        case .float: "float"
        case .double: "double"
        case .utf8String: "utf8String"
        case .octetString: "octetString"
        case .null: "null"
        case .structure: "structure"
        case .array: "array"
        case .list: "list"
        }
    }
}
