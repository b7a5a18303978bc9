import MatterDiscovery
import MatterTestSupport
import Testing

@Suite("DNS-SD TXT records")
struct TXTRecordTests {
    @Test func encodesEntriesInOrder() throws {
        var txt = DNSSDTXTRecord()
        txt.append("D", "3840")
        txt.append("DN", "")
        let flag = DNSSDTXTRecord.Entry(key: "X", value: nil)
        let strings = try DNSSDTXTRecord(txt.entries + [flag]).wireStrings()
        #expect(strings == [Array("D=3840".utf8), Array("DN=".utf8), Array("X".utf8)])
    }

    @Test func keysAreCaseInsensitiveAndTheFirstOccurrenceWins() {
        let txt = DNSSDTXTRecord(wireStrings: [Array("sii=5000".utf8), Array("SII=9".utf8), Array("Cm=2".utf8)])
        #expect(txt["SII"] == "5000")
        #expect(txt["sIi"] == "5000")
        #expect(txt["CM"] == "2")
        #expect(txt["D"] == nil)
        #expect(txt.contains(key: "cm"))
    }

    @Test func parsesBooleanEmptyAndValuesWithEquals() {
        let txt = DNSSDTXTRecord(wireStrings: [
            Array("=".utf8), [], Array("=orphan".utf8), Array("FLAG".utf8), Array("E=".utf8), Array("PI=a=b".utf8),
        ])
        #expect(txt.entries.count == 3)
        #expect(txt.contains(key: "flag"))
        #expect(txt["FLAG"] == nil)
        #expect(txt["E"] == "")
        #expect(txt["PI"] == "a=b")
    }

    @Test func invalidUTF8DoesNotTrap() {
        let txt = DNSSDTXTRecord(wireStrings: [[0x44, 0x4E, 0x3D, 0xFF, 0xFE]])
        #expect(txt["DN"] != nil)
    }

    @Test func entryLimits() throws {
        let fits = DNSSDTXTRecord([.init(key: "PI", value: String(repeating: "a", count: 252))])
        #expect(try fits.wireStrings()[0].count == 255)
        let tooLong = DNSSDTXTRecord([.init(key: "PI", value: String(repeating: "a", count: 253))])
        #expect(throws: DiscoveryError.self) { try tooLong.wireStrings() }
        #expect(throws: DiscoveryError.self) { try DNSSDTXTRecord([.init(key: "", value: "x")]).wireStrings() }
        #expect(throws: DiscoveryError.self) { try DNSSDTXTRecord([.init(key: "A=B", value: "x")]).wireStrings() }
    }
}
