import MatterTLV
import MatterTestSupport
import Testing

@Suite("Tags")
struct TagTests {
    /// Every tag form with the bytes the writer must produce for `tag = unsigned 42`.
    static let forms: [(tag: TLVTag, hexBytes: String)] = [
        (.anonymous, "04 2a"),
        (.context(0), "24 00 2a"),
        (.context(255), "24 ff 2a"),
        (.commonProfile(0), "44 00 00 2a"),
        (.commonProfile(0xFFFF), "44 ff ff 2a"),
        (.commonProfile(0x1_0000), "64 00 00 01 00 2a"),
        (.commonProfile(0xFFFF_FFFF), "64 ff ff ff ff 2a"),
        (.implicitProfile(7), "84 07 00 2a"),
        (.implicitProfile(0xFFFF), "84 ff ff 2a"),
        (.implicitProfile(0x1234_5678), "a4 78 56 34 12 2a"),
        (.fullyQualified(vendorID: 0xFFF1, profile: 0xDEED, tag: 0xFFFF), "c4 f1 ff ed de ff ff 2a"),
        (.fullyQualified(vendorID: 0xFFF1, profile: 0xDEED, tag: 0x1_0000), "e4 f1 ff ed de 00 00 01 00 2a"),
        (.fullyQualified(vendorID: 0, profile: 0, tag: 0), "c4 00 00 00 00 00 00 2a"),
    ]

    @Test("every tag form encodes in its shortest form and round-trips", arguments: 0..<forms.count)
    func roundTrips(_ index: Int) throws {
        let (tag, hexBytes) = Self.forms[index]
        let element = TLVElement(tag: tag, .unsigned(42))
        #expect(hexString(element.encoded()) == hexString(hex(hexBytes)))
        #expect(try TLVElement.decode(element.encoded()) == element)
    }

    @Test("long tag forms holding small numbers decode to the same tag and re-encode short")
    func longFormsAccepted() throws {
        let cases: [(long: String, short: String, tag: TLVTag)] = [
            ("64 01 00 00 00 2a", "44 01 00 2a", .commonProfile(1)),
            ("a4 05 00 00 00 2a", "84 05 00 2a", .implicitProfile(5)),
            (
                "e4 f1 ff ed de 01 00 00 00 2a", "c4 f1 ff ed de 01 00 2a",
                .fullyQualified(vendorID: 0xFFF1, profile: 0xDEED, tag: 1)
            ),
        ]
        for (long, short, tag) in cases {
            let element = try TLVElement.decode(hex(long))
            #expect(element == TLVElement(tag: tag, .unsigned(42)))
            #expect(element.encoded() == hex(short))
        }
    }

    @Test("tags describe themselves as logs show them")
    func descriptions() {
        #expect(TLVTag.anonymous.description == "anonymous")
        #expect(TLVTag.context(7).description == "7")
        #expect(TLVTag.commonProfile(100_000).description == "common:100000")
        #expect(TLVTag.implicitProfile(3).description == "implicit:3")
        #expect(TLVTag.fullyQualified(vendorID: 0xFFF1, profile: 0xDEED, tag: 1).description == "FFF1:DEED:1")
        #expect(
            TLVTag.fullyQualified(vendorID: 0x12, profile: 0x3, tag: 0xAA55_FEED).description == "0012:0003:AA55FEED")
    }
}
