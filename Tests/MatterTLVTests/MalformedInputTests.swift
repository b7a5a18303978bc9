import MatterTLV
import MatterTestSupport
import Testing

/// One malformed input and the exact error decoding must throw.
struct MalformedCase: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let error: TLVError
    var testDescription: String { name }

    init(_ name: String, _ hexBytes: String, _ error: TLVError) {
        self.name = name
        self.bytes = hex(hexBytes)
        self.error = error
    }

    init(_ name: String, bytes: [UInt8], _ error: TLVError) {
        self.name = name
        self.bytes = bytes
        self.error = error
    }

    static let all: [MalformedCase] = [
        // Truncated elements.
        MalformedCase("empty input", "", .truncated(offset: 0)),
        MalformedCase("uint8 without value", "04", .truncated(offset: 0)),
        MalformedCase("uint16 with one byte", "25 01 2a", .truncated(offset: 0)),
        MalformedCase("int64 with seven bytes", "03 01 02 03 04 05 06 07", .truncated(offset: 0)),
        MalformedCase("context tag byte missing", "20", .truncated(offset: 0)),
        MalformedCase("fully-qualified tag cut short", "c4 f1 ff ed", .truncated(offset: 0)),
        MalformedCase("float64 cut short", "0b 00 00", .truncated(offset: 0)),
        MalformedCase("float32 cut short", "0a 00", .truncated(offset: 0)),
        MalformedCase("string length field cut short", "0e 01 00", .truncated(offset: 0)),
        MalformedCase("truncated member", "15 24 01", .truncated(offset: 1)),
        // Lengths past the end.
        MalformedCase(
            "UTF-8 length past the end", "0c 05 48 65", .lengthExceedsInput(offset: 0, length: 5, available: 2)),
        MalformedCase(
            "2-byte length past the end", "11 00 01", .lengthExceedsInput(offset: 0, length: 256, available: 0)),
        MalformedCase(
            "8-byte length UInt64.max",
            "0f ff ff ff ff ff ff ff ff",
            .lengthExceedsInput(offset: 0, length: .max, available: 0)
        ),
        MalformedCase(
            "8-byte length 2^63",
            "13 00 00 00 00 00 00 00 80 00",
            .lengthExceedsInput(offset: 0, length: 1 << 63, available: 1)
        ),
        MalformedCase(
            "8-byte length Int.max + 1 in a member",
            "15 33 01 00 00 00 00 00 00 00 80 18",
            .lengthExceedsInput(offset: 1, length: 1 << 63, available: 1)
        ),
        // Reserved element types.
        MalformedCase("reserved 0x19", "19", .reservedElementType(offset: 0, controlByte: 0x19)),
        MalformedCase("reserved 0x1a", "1a", .reservedElementType(offset: 0, controlByte: 0x1A)),
        MalformedCase("reserved 0x1b", "1b", .reservedElementType(offset: 0, controlByte: 0x1B)),
        MalformedCase("reserved 0x1c", "1c", .reservedElementType(offset: 0, controlByte: 0x1C)),
        MalformedCase("reserved 0x1d", "1d", .reservedElementType(offset: 0, controlByte: 0x1D)),
        MalformedCase("reserved 0x1e", "1e", .reservedElementType(offset: 0, controlByte: 0x1E)),
        MalformedCase("reserved 0x1f", "1f", .reservedElementType(offset: 0, controlByte: 0x1F)),
        MalformedCase("reserved type with a context tag", "3f 01", .reservedElementType(offset: 0, controlByte: 0x3F)),
        MalformedCase(
            "reserved type in a structure", "15 39 01 18", .reservedElementType(offset: 1, controlByte: 0x39)),
        // End of container misplaced.
        MalformedCase(
            "end-of-container with a context tag", "15 38 00", .endOfContainerWithTag(offset: 1, controlByte: 0x38)),
        MalformedCase("end-of-container with a FQ tag", "16 d8", .endOfContainerWithTag(offset: 1, controlByte: 0xD8)),
        MalformedCase("end-of-container at top level", "18", .endOfContainerOutsideContainer(offset: 0)),
        MalformedCase(
            "tagged end-of-container at top level", "38 01", .endOfContainerWithTag(offset: 0, controlByte: 0x38)),
        // Containers not closed.
        MalformedCase("structure never closed", "15", .containerNotClosed(offset: 1, openContainers: 1)),
        MalformedCase("inner closed, outer not", "15 35 01 18", .containerNotClosed(offset: 4, openContainers: 1)),
        MalformedCase("two arrays open", "16 16", .containerNotClosed(offset: 2, openContainers: 2)),
        MalformedCase("members then end of input", "15 24 01 2a", .containerNotClosed(offset: 4, openContainers: 1)),
        // Nesting.
        MalformedCase(
            "33 nested lists",
            bytes: [UInt8](repeating: 0x17, count: 33),
            .nestingTooDeep(offset: 32, limit: TLVReader.maximumDepth)
        ),
        MalformedCase(
            "33 nested structures, each tagged",
            bytes: [0x15] + Array([[UInt8]](repeating: [0x35, 0x01], count: 32).joined())
                + [UInt8](repeating: 0x18, count: 33),
            .nestingTooDeep(offset: 63, limit: TLVReader.maximumDepth)
        ),
        // Tags against container rules.
        MalformedCase(
            "context-tagged array member", "16 24 01 2a 18", .taggedMemberInArray(offset: 1, tag: .context(1))),
        MalformedCase(
            "profile-tagged array member after a good one",
            "16 04 01 44 01 00 2a 18",
            .taggedMemberInArray(offset: 3, tag: .commonProfile(1))
        ),
        MalformedCase("anonymous structure member", "15 04 2a 18", .anonymousMemberInStructure(offset: 1)),
        MalformedCase(
            "anonymous container in a structure", "15 24 00 01 15 18 18", .anonymousMemberInStructure(offset: 4)),
        // Invalid UTF-8.
        MalformedCase("bad continuation byte", "0c 02 c3 28", .invalidUTF8(offset: 0)),
        MalformedCase("0xff byte", "0c 01 ff", .invalidUTF8(offset: 0)),
        MalformedCase("UTF-16 surrogate", "0c 03 ed a0 80", .invalidUTF8(offset: 0)),
        MalformedCase("overlong encoding", "0c 02 c0 af", .invalidUTF8(offset: 0)),
        MalformedCase("sequence cut by the length", "15 2c 01 01 c3 18", .invalidUTF8(offset: 1)),
        // Trailing bytes.
        MalformedCase("byte after a scalar", "04 2a 00", .trailingBytes(offset: 2, count: 1)),
        MalformedCase("extra end-of-container", "15 18 18", .trailingBytes(offset: 2, count: 1)),
        MalformedCase("second element", "15 18 15 18", .trailingBytes(offset: 2, count: 2)),
    ]
}

@Suite("Malformed input")
struct MalformedInputTests {
    @Test("decoding throws the specific error", arguments: MalformedCase.all)
    func throwsSpecificError(_ malformed: MalformedCase) {
        #expect(throws: malformed.error) { try TLVElement.decode(malformed.bytes) }
    }

    @Test("streaming the same bytes throws the same error (trailing bytes aside)", arguments: MalformedCase.all)
    func streamingThrowsToo(_ malformed: MalformedCase) {
        if case .trailingBytes = malformed.error { return }  // a stream may hold several elements
        #expect(throws: malformed.error) {
            var reader = TLVReader(malformed.bytes)
            if malformed.bytes.isEmpty { _ = try reader.readElement() }
            while try reader.next() != nil {}
        }
    }

    @Test("the pretty-printer shows what it could read, then the error")
    func prettyPrinterShowsError() {
        #expect(
            TLVPrettyPrinter.format(bytes: hex("15 24 01 2a 2c 02 05 48 65"))
                == """
                {
                  1: 42U
                error: TLV string at offset 4 declares 5 bytes but only 2 remain
                """
        )
    }

    @Test("errors read as sentences a user can act on")
    func descriptions() {
        #expect(
            TLVError.truncated(offset: 3).description
                == "TLV input is truncated: it ends inside the element at offset 3"
        )
        #expect(
            TLVError.reservedElementType(offset: 0, controlByte: 0x3F).description
                == "TLV control byte 0x3F at offset 0 uses a reserved element type"
        )
        #expect(
            TLVError.typeMismatch(tag: .context(2), expected: .unsignedInteger, found: .signedInteger).description
                == "TLV element with tag 2 is of type signed integer, expected unsigned integer"
        )
    }
}
