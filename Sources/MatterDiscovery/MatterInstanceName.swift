package import MatterCore

/// Instance-name formats: 16 random upper-case hex digits for commissionable nodes and commissioners,
/// `<CompressedFabricID>-<NodeID>` (16 upper-case hex each) for operational nodes.
package enum MatterInstanceName {
    /// A fresh random commissionable instance name (64 random bits as 16 upper-case hex digits).
    package static func randomCommissionable() -> String {
        var generator = SystemRandomNumberGenerator()
        return randomCommissionable(using: &generator)
    }

    /// A random commissionable instance name drawn from `generator` (deterministic in tests).
    package static func randomCommissionable<G: RandomNumberGenerator>(using generator: inout G) -> String {
        hexDigits(generator.next() as UInt64, width: 16)
    }

    /// `87E1B004E235A130-8FC7772401CD0696`: 33 characters, both halves zero-padded upper-case hex.
    package static func operational(compressedFabricID: UInt64, nodeID: NodeID) -> String {
        hexDigits(compressedFabricID, width: 16) + "-" + hexDigits(nodeID.rawValue, width: 16)
    }

    /// Parses an operational instance name (hex digits of either case); throws on any other shape.
    package static func parseOperational(_ name: String) throws(DiscoveryError) -> (
        compressedFabricID: UInt64, nodeID: NodeID
    ) {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let fabric = parseHex64(parts[0]), let node = parseHex64(parts[1]) else {
            throw .malformedRecord("operational instance name '\(name)' is not <16 hex digits>-<16 hex digits>")
        }
        return (fabric, NodeID(node))
    }

    /// True for a name made of exactly 16 hex digits (the random commissionable format).
    package static func isRandomHex(_ name: String) -> Bool { parseHex64(Substring(name)) != nil }

    /// The name to try after `name` collided with another host's: a fresh random name for the
    /// random-hex formats, `name #2`, `name #3`... (Avahi's convention) for anything else.
    package static func next<G: RandomNumberGenerator>(
        after name: String, renaming: DNSSDServiceRecord.CollisionRenaming, using generator: inout G
    ) -> String {
        switch renaming {
        case .randomHex:
            var candidate = randomCommissionable(using: &generator)
            while candidate == name { candidate = randomCommissionable(using: &generator) }
            return candidate
        case .numbered:
            if let hash = name.lastIndex(of: "#"), hash > name.startIndex,
                name[name.index(before: hash)] == " ",
                let n = Int(name[name.index(after: hash)...]), n >= 2
            {
                return String(name[..<name.index(before: hash)]) + " #\(n + 1)"
            }
            // Keep the result within one 63-byte DNS label.
            var base = name
            while base.utf8.count + 3 > DNSSDServiceRecord.maxInstanceNameBytes { base.removeLast() }
            return base + " #2"
        }
    }

    private static func parseHex64(_ text: Substring) -> UInt64? {
        guard text.utf8.count == 16, text.utf8.allSatisfy({ isHexDigit($0) }) else { return nil }
        return UInt64(text, radix: 16)
    }

    private static func isHexDigit(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }
}
