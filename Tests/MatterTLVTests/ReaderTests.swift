import MatterTLV
import MatterTestSupport
import Testing

@Suite("Streaming reader")
struct ReaderTests {
    @Test("integers and lengths of any width are accepted and re-encoded minimally")
    func anyWidthAcceptance() throws {
        let cases: [(wide: String, element: TLVElement, minimal: String)] = [
            ("25 01 2a 00", ctx(1, .unsigned(42)), "24 01 2a"),
            ("07 2a 00 00 00 00 00 00 00", anon(.unsigned(42)), "04 2a"),
            ("06 e8 03 00 00", anon(.unsigned(1000)), "05 e8 03"),
            ("03 ef ff ff ff ff ff ff ff", anon(.signed(-17)), "00 ef"),
            ("02 a6 01 00 00", anon(.signed(422)), "01 a6 01"),
            ("0f 02 00 00 00 00 00 00 00 68 69", anon(.utf8("hi")), "0c 02 68 69"),
            ("11 03 00 01 02 03", anon(.bytes([1, 2, 3])), "10 03 01 02 03"),
            ("12 00 00 00 00", anon(.bytes([])), "10 00"),
        ]
        for (wide, element, minimal) in cases {
            let decoded = try TLVElement.decode(hex(wide))
            #expect(decoded == element, "\(wide)")
            #expect(hexString(decoded.encoded()) == hexString(hex(minimal)), "\(wide)")
        }
    }

    @Test("tokens follow the bytes: element headers, container starts and ends")
    func tokens() throws {
        var reader = TLVReader(hex("15 20 00 2a 36 01 04 07 18 24 02 2a 18"))
        var tokens: [TLVToken] = []
        while let token = try reader.next() { tokens.append(token) }
        #expect(
            tokens == [
                .containerStart(tag: .anonymous, type: .structure),
                .element(tag: .context(0), value: .signed(42)),
                .containerStart(tag: .context(1), type: .array),
                .element(tag: .anonymous, value: .unsigned(7)),
                .containerEnd(type: .array),
                .element(tag: .context(2), value: .unsigned(42)),
                .containerEnd(type: .structure),
            ]
        )
        #expect(reader.depth == 0)
        try reader.expectEnd()
    }

    @Test("a sequence of top-level elements reads one after another")
    func topLevelSequence() throws {
        var reader = TLVReader(hex("04 01 09 15 18"))
        #expect(try reader.readUInt8() == 1)
        #expect(try reader.readBool() == true)
        #expect(try reader.readElement() == anon(.structure([])))
        #expect(try reader.next() == nil)
    }

    @Test("peekHeader announces the next element without consuming it, nil at a container end")
    func peek() throws {
        var reader = TLVReader(hex("15 25 03 e8 03 18"))
        try reader.enterContainer(.structure)
        let header = try #require(try reader.peekHeader())
        #expect(header.tag == .context(3))
        #expect(header.type == .unsignedInteger)
        #expect(header.offset == 1)
        #expect(reader.offset == 1)
        #expect(try reader.readUInt16(tag: .context(3)) == 1000)
        #expect(try reader.peekHeader() == nil)
        #expect(reader.depth == 1)
        #expect(reader.currentContainer == .structure)
        try reader.exitContainer()
        #expect(try reader.peekHeader() == nil)
        #expect(reader.depth == 0)
    }

    @Test("unsigned reads range-check against the requested width")
    func unsignedRangeChecks() throws {
        var reader = TLVReader(hex("25 01 e8 03"))
        #expect(throws: TLVError.integerOutOfRange(tag: .context(1), value: "1000", target: "UInt8")) {
            try reader.readUInt8(tag: .context(1))
        }
        reader = TLVReader(hex("27 01 00 00 00 00 01 00 00 00"))
        #expect(throws: TLVError.integerOutOfRange(tag: .context(1), value: "4294967296", target: "UInt32")) {
            try reader.readUInt32()
        }
        reader = TLVReader(hex("07 ff ff ff ff ff ff ff ff"))
        #expect(try reader.readUInt64() == .max)
        reader = TLVReader(hex("07 ff 00 00 00 00 00 00 00"))
        #expect(try reader.readUInt8() == 255)
    }

    @Test("signed reads range-check against the requested width")
    func signedRangeChecks() throws {
        var reader = TLVReader(hex("01 7f ff"))
        #expect(throws: TLVError.integerOutOfRange(tag: .anonymous, value: "-129", target: "Int8")) {
            try reader.readInt8()
        }
        reader = TLVReader(hex("02 00 80 00 00"))
        #expect(throws: TLVError.integerOutOfRange(tag: .anonymous, value: "32768", target: "Int16")) {
            try reader.readInt16()
        }
        reader = TLVReader(hex("03 00 00 00 00 00 00 00 80"))
        #expect(try reader.readInt64() == .min)
        reader = TLVReader(hex("03 ff ff ff ff ff ff ff ff"))
        #expect(try reader.readInt8() == -1)
    }

    @Test("signed and unsigned do not mix, whatever the value")
    func signednessMismatch() throws {
        var reader = TLVReader(hex("20 01 05"))
        #expect(throws: TLVError.typeMismatch(tag: .context(1), expected: .unsignedInteger, found: .signedInteger)) {
            try reader.readUInt16()
        }
        reader = TLVReader(hex("24 01 05"))
        #expect(throws: TLVError.typeMismatch(tag: .context(1), expected: .signedInteger, found: .unsignedInteger)) {
            try reader.readInt64()
        }
        reader = TLVReader(hex("0c 01 35"))
        #expect(throws: TLVError.typeMismatch(tag: .anonymous, expected: .unsignedInteger, found: .utf8String)) {
            try reader.readUInt8()
        }
        reader = TLVReader(hex("15 18"))
        #expect(throws: TLVError.typeMismatch(tag: .anonymous, expected: .octetString, found: .structure)) {
            try reader.readBytes()
        }
    }

    @Test("a required tag that does not come next, or a container that ends, throws")
    func tagExpectations() throws {
        var reader = TLVReader(hex("15 24 01 2a 18"))
        try reader.enterContainer(.structure)
        #expect(throws: TLVError.unexpectedTag(expected: .context(2), found: .context(1))) {
            try reader.readUInt8(tag: .context(2))
        }
        reader = TLVReader(hex("15 24 01 2a 18"))
        try reader.enterContainer(.structure)
        #expect(try reader.readIfPresent(UInt8.self, tag: .context(0)) == nil)
        #expect(try reader.readUInt8(tag: .context(1)) == 42)
        #expect(try reader.readIfPresent(UInt8.self, tag: .context(2)) == nil)
        #expect(throws: TLVError.missingElement(tag: .context(2))) { try reader.readUInt8(tag: .context(2)) }
        #expect(throws: TLVError.typeMismatch(tag: .anonymous, expected: .array, found: .structure)) {
            var other = TLVReader(hex("15 18"))
            try other.enterContainer(.array)
        }
        #expect(throws: TLVError.truncated(offset: 0)) {
            var empty = TLVReader([])
            _ = try empty.readElement()
        }
    }

    @Test("exitContainer skips unknown members, nested containers included")
    func skipsUnknownMembers() throws {
        var reader = TLVReader(hex("15 24 01 07 35 09 36 00 04 01 18 2c 02 02 68 69 18 24 0a 01 18 09"))
        try reader.enterContainer(.structure)
        #expect(try reader.readUInt8(tag: .context(1)) == 7)
        try reader.exitContainer()
        #expect(reader.depth == 0)
        #expect(try reader.readBool() == true)
        try reader.expectEnd()
    }

    @Test("skipElement passes over a whole container")
    func skipElement() throws {
        var reader = TLVReader(hex("17 04 01 35 01 18 18 04 02"))
        try reader.skipElement()
        #expect(reader.offset == 7)
        #expect(try reader.readUInt8() == 2)
    }

    @Test("readContainer closes what the body leaves open")
    func readContainerCloses() throws {
        var reader = TLVReader(hex("15 35 01 24 01 05 18 24 02 06 18 04 03"))
        let first = try reader.readContainer(.structure) { r throws(TLVError) in
            try r.enterContainer(.structure, tag: .context(1))
            return try r.readUInt8(tag: .context(1))
        }
        #expect(first == 5)
        #expect(reader.depth == 0)
        #expect(try reader.readUInt8() == 3)
    }

    @Test("arrays read as Swift arrays")
    func arrays() throws {
        var reader = TLVReader(hex("15 36 03 04 01 04 02 05 e8 03 18 18"))
        let values = try reader.readContainer(.structure) { r throws(TLVError) in
            try r.readArray(of: UInt16.self, tag: .context(3))
        }
        #expect(values == [1, 2, 1000])
    }

    @Test("nesting up to the limit is accepted")
    func nestingAtLimit() throws {
        let depth = TLVReader.maximumDepth
        let bytes = [UInt8](repeating: 0x16, count: depth) + [UInt8](repeating: 0x18, count: depth)
        var element = anon(.array([]))
        for _ in 1..<depth { element = anon(.array([element])) }
        #expect(try TLVElement.decode(bytes) == element)
        #expect(element.encoded() == bytes)
    }
}
