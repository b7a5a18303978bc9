import MatterTLV
import MatterTestSupport
import Testing

/// A message shaped like Matter's, with its own conformances, as other modules will write them.
///
/// | tag | field | type |
/// |---|---|---|
/// | 1 | id | uint16 |
/// | 2 | name | string, optional |
/// | 3 | level | uint8, nullable |
/// | 4 | data | octet string |
private struct Sample: TLVEncodable, TLVDecodable, Equatable {
    var id: UInt16
    var name: String?
    var level: TLVNullable<UInt8>
    var data: [UInt8]

    init(id: UInt16, name: String?, level: TLVNullable<UInt8>, data: [UInt8]) {
        self.id = id
        self.name = name
        self.level = level
        self.data = data
    }

    func encode(to writer: inout TLVWriter, tag: TLVTag) {
        writer.putStructure(tag: tag) { w in
            w.put(id, tag: .context(1))
            w.put(name, tag: .context(2))
            w.put(level, tag: .context(3))
            w.put(data, tag: .context(4))
        }
    }

    init(tlv element: TLVElement) throws(TLVError) {
        id = try element.decodeMember(.context(1))
        name = try element.decodeMemberIfPresent(.context(2))
        level = try element.decodeMember(.context(3))
        data = try element.decodeMember(.context(4))
    }

    init(from reader: inout TLVReader) throws(TLVError) {
        self = try reader.readContainer(.structure) { r throws(TLVError) in
            Sample(
                id: try r.read(tag: .context(1)),
                name: try r.readIfPresent(tag: .context(2)),
                level: try r.read(tag: .context(3)),
                data: try r.read(tag: .context(4))
            )
        }
    }
}

@Suite("Encodable and decodable conformances")
struct CodableTests {
    private static let samples = [
        Sample(id: 0x1234, name: "lamp", level: .value(254), data: [1, 2, 3]),
        Sample(id: 0, name: nil, level: .null, data: []),
    ]

    @Test("a conforming message round-trips through the writer, the reader and the tree")
    func sampleRoundTrip() throws {
        for sample in Self.samples {
            var writer = TLVWriter()
            writer.put(sample)
            var reader = TLVReader(writer.bytes)
            #expect(try reader.read(Sample.self) == sample)
            try reader.expectEnd()
            #expect(try Sample(tlv: TLVElement.decode(writer.bytes)) == sample)
        }
        var writer = TLVWriter()
        writer.put(Self.samples[1])
        #expect(hexString(writer.bytes) == hexString(hex("15 24 01 00 34 03 30 04 00 18")))
    }

    @Test("a missing required member is named")
    func missingMember() {
        #expect(throws: TLVError.missingElement(tag: .context(4))) {
            try Sample(tlv: TLVElement.decode(hex("15 24 01 00 34 03 18")))
        }
        #expect(throws: TLVError.missingElement(tag: .context(4))) {
            var reader = TLVReader(hex("15 24 01 00 34 03 18"))
            _ = try reader.read(Sample.self)
        }
    }

    @Test("basic types round-trip through writer and reader")
    func basicTypes() throws {
        var writer = TLVWriter()
        writer.put(true, tag: .context(0))
        writer.put(Int8.min, tag: .context(1))
        writer.put(Int16.min, tag: .context(2))
        writer.put(Int32.min, tag: .context(3))
        writer.put(Int64.min, tag: .context(4))
        writer.put(Int.max, tag: .context(5))
        writer.put(UInt8.max, tag: .context(6))
        writer.put(UInt16.max, tag: .context(7))
        writer.put(UInt32.max, tag: .context(8))
        writer.put(UInt64.max, tag: .context(9))
        writer.put(UInt.max, tag: .context(10))
        writer.put(Float(0.5), tag: .context(11))
        writer.put(Double(-2.25), tag: .context(12))
        writer.put("héllo", tag: .context(13))
        writer.put([UInt8]([0xDE, 0xAD]), tag: .context(14))
        writer.putNull(tag: .context(15))

        var r = TLVReader(writer.bytes)
        #expect(try r.readBool(tag: .context(0)) == true)
        #expect(try r.readInt8(tag: .context(1)) == .min)
        #expect(try r.readInt16(tag: .context(2)) == .min)
        #expect(try r.readInt32(tag: .context(3)) == .min)
        #expect(try r.readInt64(tag: .context(4)) == .min)
        #expect(try r.read(Int.self, tag: .context(5)) == .max)
        #expect(try r.readUInt8(tag: .context(6)) == .max)
        #expect(try r.readUInt16(tag: .context(7)) == .max)
        #expect(try r.readUInt32(tag: .context(8)) == .max)
        #expect(try r.readUInt64(tag: .context(9)) == .max)
        #expect(try r.read(UInt.self, tag: .context(10)) == .max)
        #expect(try r.readFloat(tag: .context(11)) == 0.5)
        #expect(try r.readDouble(tag: .context(12)) == -2.25)
        #expect(try r.readString(tag: .context(13)) == "héllo")
        #expect(try r.readBytes(tag: .context(14)) == [0xDE, 0xAD])
        try r.readNull(tag: .context(15))
        try r.expectEnd()
    }

    @Test("[UInt8] is an octet string, not an array")
    func bytesAreOctetStrings() throws {
        var writer = TLVWriter()
        writer.put([UInt8]([1, 2]))
        #expect(writer.bytes == hex("10 02 01 02"))
        #expect(throws: TLVError.typeMismatch(tag: .anonymous, expected: .octetString, found: .array)) {
            try [UInt8](tlv: anon(.array([anon(.unsigned(1))])))
        }
        #expect(try anon(.array([anon(.unsigned(1)), anon(.unsigned(2))])).decodeArray(of: UInt8.self) == [1, 2])
    }

    @Test("Double widens a float32; Float refuses a float64")
    func floatingPoint() throws {
        #expect(try Double(tlv: anon(.float(0.5))) == 0.5)
        #expect(throws: TLVError.typeMismatch(tag: .context(1), expected: .float, found: .double)) {
            try Float(tlv: ctx(1, .double(0.5)))
        }
    }

    @Test("tree conversions check type, signedness and range")
    func treeConversions() {
        #expect(throws: TLVError.integerOutOfRange(tag: .context(7), value: "256", target: "UInt8")) {
            try UInt8(tlv: ctx(7, .unsigned(256)))
        }
        #expect(throws: TLVError.typeMismatch(tag: .context(7), expected: .unsignedInteger, found: .signedInteger)) {
            try UInt32(tlv: ctx(7, .signed(1)))
        }
        #expect(throws: TLVError.typeMismatch(tag: .anonymous, expected: .boolean, found: .null)) {
            try Bool(tlv: anon(.null))
        }
        #expect(throws: TLVError.typeMismatch(tag: .anonymous, expected: .structure, found: .array)) {
            try anon(.array([])).decodeMember(.context(1), as: UInt8.self)
        }
        #expect(throws: TLVError.typeMismatch(tag: .anonymous, expected: .array, found: .list)) {
            try anon(.list([])).decodeArray(of: UInt8.self)
        }
    }

    @Test("nullable reads null or a value, from a tree or a reader")
    func nullable() throws {
        #expect(try TLVNullable<UInt8>(tlv: anon(.null)) == .null)
        #expect(try TLVNullable<UInt8>(tlv: anon(.unsigned(3))) == .value(3))
        #expect(TLVNullable<UInt8>(nil).optional == nil)
        #expect(TLVNullable<UInt8>(4).optional == 4)
        var reader = TLVReader(hex("14 04 03"))
        #expect(try reader.read(TLVNullable<UInt8>.self) == .null)
        #expect(try reader.read(TLVNullable<UInt8>.self) == .value(3))
    }

    @Test("elements and values decode as themselves, members kept as trees")
    func rawElements() throws {
        var reader = TLVReader(hex("15 35 01 24 00 01 18 18"))
        try reader.enterContainer(.structure)
        let member = try reader.read(TLVElement.self, tag: .context(1))
        #expect(member == ctx(1, .structure([ctx(0, .unsigned(1))])))
        #expect(try TLVValue(tlv: member) == member.value)
    }

    @Test("convenience accessors give values of their own kind only")
    func accessors() {
        #expect(anon(.unsigned(5)).uint == 5)
        #expect(anon(.signed(5)).uint == nil)
        #expect(anon(.signed(-5)).int == -5)
        #expect(anon(.unsigned(5)).int == nil)
        #expect(anon(.bool(true)).bool == true)
        #expect(anon(.float(1)).float == 1)
        #expect(anon(.double(2)).double == 2)
        #expect(anon(.utf8("x")).string == "x")
        #expect(anon(.bytes([1])).bytes == [1])
        #expect(anon(.null).isNull)
        #expect(anon(.list([anon(.null)])).members == [anon(.null)])
        #expect(anon(.unsigned(1)).members == nil)
        #expect(anon(.array([])).type == .array)
        let list = anon(.list([anon(.signed(1)), ctx(2, .signed(3)), ctx(2, .signed(4))]))
        #expect(list[context: 2] == ctx(2, .signed(3)))
        #expect(list[tag: .context(2)]?.int == 3)
        #expect(anon(.array([anon(.signed(1))]))[context: 0] == nil)
    }
}
