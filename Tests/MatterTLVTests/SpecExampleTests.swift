import MatterTLV
import MatterTestSupport
import Testing

/// The worked examples of the Matter core specification, Appendix A (as listed in our spec digest).
struct SpecExample: Sendable, CustomTestStringConvertible {
    let name: String
    let element: TLVElement
    let hexBytes: String
    var testDescription: String { name }

    static let fqVendor: UInt16 = 0xFFF1
    static let fqProfile: UInt16 = 0xDEED

    static let all: [SpecExample] = [
        SpecExample(name: "false", element: anon(.bool(false)), hexBytes: "08"),
        SpecExample(name: "true", element: anon(.bool(true)), hexBytes: "09"),
        SpecExample(name: "signed 42", element: anon(.signed(42)), hexBytes: "00 2a"),
        SpecExample(name: "signed -17", element: anon(.signed(-17)), hexBytes: "00 ef"),
        SpecExample(name: "unsigned 42", element: anon(.unsigned(42)), hexBytes: "04 2a"),
        SpecExample(name: "signed 422", element: anon(.signed(422)), hexBytes: "01 a6 01"),
        SpecExample(name: "signed -170000", element: anon(.signed(-170_000)), hexBytes: "02 f0 67 fd ff"),
        SpecExample(
            name: "signed 40000000000",
            element: anon(.signed(40_000_000_000)),
            hexBytes: "03 00 90 2f 50 09 00 00 00"
        ),
        SpecExample(name: "UTF-8 Hello!", element: anon(.utf8("Hello!")), hexBytes: "0c 06 48 65 6c 6c 6f 21"),
        SpecExample(name: "UTF-8 Tschüs", element: anon(.utf8("Tschüs")), hexBytes: "0c 07 54 73 63 68 c3 bc 73"),
        SpecExample(name: "octets", element: anon(.bytes([0, 1, 2, 3, 4])), hexBytes: "10 05 00 01 02 03 04"),
        SpecExample(name: "null", element: anon(.null), hexBytes: "14"),
        SpecExample(name: "float32 0.0", element: anon(.float(0.0)), hexBytes: "0a 00 00 00 00"),
        SpecExample(name: "float32 1/3", element: anon(.float(1.0 / 3.0)), hexBytes: "0a ab aa aa 3e"),
        SpecExample(name: "float32 17.9", element: anon(.float(17.9)), hexBytes: "0a 33 33 8f 41"),
        SpecExample(name: "float32 +inf", element: anon(.float(.infinity)), hexBytes: "0a 00 00 80 7f"),
        SpecExample(name: "float32 -inf", element: anon(.float(-.infinity)), hexBytes: "0a 00 00 80 ff"),
        SpecExample(name: "float64 1/3", element: anon(.double(1.0 / 3.0)), hexBytes: "0b 55 55 55 55 55 55 d5 3f"),
        SpecExample(name: "float64 17.9", element: anon(.double(17.9)), hexBytes: "0b 66 66 66 66 66 e6 31 40"),
        SpecExample(name: "empty structure", element: anon(.structure([])), hexBytes: "15 18"),
        SpecExample(name: "empty array", element: anon(.array([])), hexBytes: "16 18"),
        SpecExample(name: "empty list", element: anon(.list([])), hexBytes: "17 18"),
        SpecExample(
            name: "{0 = 42, 1 = -17}",
            element: anon(.structure([ctx(0, .signed(42)), ctx(1, .signed(-17))])),
            hexBytes: "15 20 00 2a 20 01 ef 18"
        ),
        SpecExample(
            name: "[0, 1, 2, 3, 4]",
            element: anon(.array((0...4).map { anon(.signed($0)) })),
            hexBytes: "16 00 00 00 01 00 02 00 03 00 04 18"
        ),
        SpecExample(
            name: "list [1, 0 = 42, 2, 3, 0 = -17]",
            element: anon(
                .list([
                    anon(.signed(1)), ctx(0, .signed(42)), anon(.signed(2)), anon(.signed(3)), ctx(0, .signed(-17)),
                ])
            ),
            hexBytes: "17 00 01 20 00 2a 00 02 00 03 20 00 ef 18"
        ),
        SpecExample(
            name: "[42, -170000, {}, 17.9, \"Hello!\"]",
            element: anon(
                .array([
                    anon(.signed(42)), anon(.signed(-170_000)), anon(.structure([])), anon(.float(17.9)),
                    anon(.utf8("Hello!")),
                ])
            ),
            hexBytes: "16 00 2a 02 f0 67 fd ff 15 18 0a 33 33 8f 41 0c 06 48 65 6c 6c 6f 21 18"
        ),
        SpecExample(name: "context tag 1, unsigned 42", element: ctx(1, .unsigned(42)), hexBytes: "24 01 2a"),
        SpecExample(
            name: "common-profile tag 1",
            element: TLVElement(tag: .commonProfile(1), .unsigned(42)),
            hexBytes: "44 01 00 2a"
        ),
        SpecExample(
            name: "common-profile tag 100000",
            element: TLVElement(tag: .commonProfile(100_000), .unsigned(42)),
            hexBytes: "64 a0 86 01 00 2a"
        ),
        SpecExample(
            name: "fully-qualified tag FFF1:DEED:1",
            element: TLVElement(tag: .fullyQualified(vendorID: fqVendor, profile: fqProfile, tag: 1), .unsigned(42)),
            hexBytes: "c4 f1 ff ed de 01 00 2a"
        ),
        SpecExample(
            name: "fully-qualified tag FFF1:DEED:AA55FEED",
            element: TLVElement(
                tag: .fullyQualified(vendorID: fqVendor, profile: fqProfile, tag: 0xAA55_FEED),
                .unsigned(42)
            ),
            hexBytes: "e4 f1 ff ed de ed fe 55 aa 2a"
        ),
        SpecExample(
            name: "structure with fully-qualified tags",
            element: TLVElement(
                tag: .fullyQualified(vendorID: fqVendor, profile: fqProfile, tag: 1),
                .structure([
                    TLVElement(tag: .fullyQualified(vendorID: fqVendor, profile: fqProfile, tag: 0xAA55), .unsigned(42))
                ])
            ),
            hexBytes: "d5 f1 ff ed de 01 00 c4 f1 ff ed de 55 aa 2a 18"
        ),
    ]
}

@Suite("Specification worked examples")
struct SpecExampleTests {
    @Test("decodes to the model", arguments: SpecExample.all)
    func decodes(_ example: SpecExample) throws {
        #expect(try TLVElement.decode(hex(example.hexBytes)) == example.element)
    }

    @Test("encodes byte for byte", arguments: SpecExample.all)
    func encodes(_ example: SpecExample) {
        #expect(hexString(example.element.encoded()) == hexString(hex(example.hexBytes)))
    }

    @Test("float bit patterns survive, not just values")
    func floatBitsSurvive() throws {
        let negativeZero = try TLVElement.decode(hex("0a 00 00 00 80"))
        #expect(negativeZero.float?.sign == .minus)
        #expect(negativeZero.encoded() == hex("0a 00 00 00 80"))
    }
}
