import MatterTLV
import MatterTestSupport
import Testing

@Suite("Pretty-printer")
struct PrettyPrinterTests {
    static let nested = anon(
        .structure([
            ctx(0, .unsigned(42)),
            ctx(1, .signed(-17)),
            ctx(2, .utf8("Tsch\u{FC}s \"quoted\"")),
            ctx(3, .bytes([0x00, 0xAB, 0xFF])),
            ctx(4, .structure([ctx(1, .bool(true)), ctx(2, .null)])),
            ctx(5, .array([anon(.float(17.5)), anon(.double(0.25))])),
            ctx(6, .list([])),
            TLVElement(
                tag: .fullyQualified(vendorID: 0xFFF1, profile: 0xDEED, tag: 1),
                .list([anon(.unsigned(1)), ctx(9, .array([]))])),
            TLVElement(tag: .commonProfile(100_000), .structure([])),
        ])
    )

    @Test("one member a line, indented, tags and values in log form")
    func multiline() {
        #expect(
            Self.nested.prettyDescription == """
                {
                  0: 42U
                  1: -17
                  2: "Tschüs \\"quoted\\""
                  3: hex:00abff
                  4: {
                    1: true
                    2: null
                  }
                  5: [
                    17.5f
                    0.25
                  ]
                  6: [[]]
                  FFF1:DEED:1: [[
                    1U
                    9: []
                  ]]
                  common:100000: {}
                }
                """
        )
    }

    @Test("the streaming printer matches the tree printer")
    func streamingMatchesTree() {
        #expect(TLVPrettyPrinter.format(bytes: Self.nested.encoded()) == TLVPrettyPrinter.format(Self.nested))
    }

    @Test("description is the same on one line")
    func singleLine() {
        #expect(
            Self.nested.description
                == #"{0: 42U, 1: -17, 2: "Tschüs \"quoted\"", 3: hex:00abff, 4: {1: true, 2: null}, "#
                + #"5: [17.5f, 0.25], 6: [[]], FFF1:DEED:1: [[1U, 9: []]], common:100000: {}}"#
        )
        #expect(TLVValue.signed(-3).description == "-3")
    }

    @Test("scalars at top level, several elements, non-finite floats")
    func scalars() {
        #expect(anon(.float(.infinity)).prettyDescription == "inf")
        #expect(ctx(1, .bytes([])).prettyDescription == "1: hex:")
        #expect(TLVPrettyPrinter.format(bytes: hex("04 01 24 02 07")) == "1U\n2: 7U")
        #expect(TLVPrettyPrinter.format(bytes: []) == "")
    }
}
