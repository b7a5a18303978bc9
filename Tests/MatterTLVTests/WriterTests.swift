import MatterTLV
import MatterTestSupport
import Testing

@Suite("Writer")
struct WriterTests {
    @Test("unsigned integers take the smallest width")
    func unsignedWidths() {
        let cases: [(UInt64, String)] = [
            (0, "04 00"), (255, "04 ff"), (256, "05 00 01"), (65535, "05 ff ff"), (65536, "06 00 00 01 00"),
            (0xFFFF_FFFF, "06 ff ff ff ff"), (0x1_0000_0000, "07 00 00 00 00 01 00 00 00"),
            (.max, "07 ff ff ff ff ff ff ff ff"),
        ]
        for (value, expected) in cases {
            var writer = TLVWriter()
            writer.putUnsigned(value)
            #expect(hexString(writer.bytes) == hexString(hex(expected)), "\(value)")
        }
    }

    @Test("signed integers take the smallest two's-complement width")
    func signedWidths() {
        let cases: [(Int64, String)] = [
            (0, "00 00"), (127, "00 7f"), (-128, "00 80"), (128, "01 80 00"), (-129, "01 7f ff"),
            (32767, "01 ff 7f"), (32768, "02 00 80 00 00"), (-32769, "02 ff 7f ff ff"),
            (Int64(Int32.max) + 1, "03 00 00 00 80 00 00 00 00"), (.min, "03 00 00 00 00 00 00 00 80"),
        ]
        for (value, expected) in cases {
            var writer = TLVWriter()
            writer.putSigned(value)
            #expect(hexString(writer.bytes) == hexString(hex(expected)), "\(value)")
        }
    }

    @Test("Swift integer types keep their signedness, not their width")
    func swiftTypes() {
        var writer = TLVWriter()
        writer.put(UInt16(1000), tag: .context(1))
        writer.put(UInt32(5), tag: .context(2))
        writer.put(Int64(-1), tag: .context(3))
        writer.put(UInt8(200))
        writer.put(Int8(-100))
        writer.put(42)
        writer.put(UInt(7))
        #expect(hexString(writer.bytes) == hexString(hex("25 01 e8 03 24 02 05 20 03 ff 04 c8 00 9c 00 2a 04 07")))
    }

    @Test("strings and octet strings take the smallest length field")
    func lengthFields() {
        let cases: [(count: Int, utf8Prefix: String, bytesPrefix: String)] = [
            (0, "0c 00", "10 00"),
            (255, "0c ff", "10 ff"),
            (256, "0d 00 01", "11 00 01"),
            (65535, "0d ff ff", "11 ff ff"),
            (65536, "0e 00 00 01 00", "12 00 00 01 00"),
        ]
        for (count, utf8Prefix, bytesPrefix) in cases {
            var writer = TLVWriter()
            writer.put(String(repeating: "a", count: count))
            #expect(writer.bytes == hex(utf8Prefix) + [UInt8](repeating: 0x61, count: count), "\(count)")
            writer = TLVWriter()
            writer.put([UInt8](repeating: 7, count: count))
            #expect(writer.bytes == hex(bytesPrefix) + [UInt8](repeating: 7, count: count), "\(count)")
        }
    }

    @Test("a 64 KiB string round-trips through the 4-byte length form")
    func largeStringRoundTrip() throws {
        let text = String(repeating: "ü", count: 40_000)  // 80 000 UTF-8 bytes
        let element = ctx(3, .utf8(text))
        #expect(try TLVElement.decode(element.encoded()) == element)
    }

    @Test("octet strings from any byte collection")
    func putBytesCollection() {
        var writer = TLVWriter()
        let source: [UInt8] = [9, 1, 2, 3, 9]
        writer.putBytes(source[1...3], tag: .context(1))
        #expect(writer.bytes == hex("30 01 03 01 02 03"))
    }

    @Test("containers via start and end or closures; a stray end is ignored")
    func containers() {
        var manual = TLVWriter()
        manual.startContainer(.structure)
        manual.startContainer(.list, tag: .context(1))
        manual.put(true)
        manual.put(false, tag: .context(2))
        manual.endContainer()
        manual.startContainer(.array, tag: .context(2))
        manual.putNull()
        manual.endContainer()
        #expect(manual.openContainers == 1)
        manual.endContainer()
        manual.endContainer()
        #expect(manual.openContainers == 0)

        var closures = TLVWriter()
        closures.putStructure { s in
            s.putList(tag: .context(1)) { l in
                l.put(true)
                l.put(false, tag: .context(2))
            }
            s.putArray(tag: .context(2)) { a in a.putNull() }
        }
        let expected = hex("15 37 01 09 28 02 18 36 02 14 18 18")
        #expect(manual.bytes == expected)
        #expect(closures.bytes == expected)
    }

    @Test("a throwing body rethrows its own error type")
    func throwingBody() {
        struct Stop: Error, Equatable {}
        var writer = TLVWriter()
        #expect(throws: Stop()) {
            try writer.putStructure { (_: inout TLVWriter) throws(Stop) in throw Stop() }
        }
    }

    @Test("arrays of encodable values, optionals as absent, nullables as null")
    func arraysOptionalsNullables() {
        var writer = TLVWriter()
        writer.putStructure { s in
            s.putArray([UInt16(1), 300], tag: .context(0))
            s.put(UInt8?.none, tag: .context(1))
            s.put(UInt8?.some(5), tag: .context(2))
            s.put(TLVNullable<UInt8>.null, tag: .context(3))
            s.put(TLVNullable(UInt8(6)), tag: .context(4))
            s.put(TLVNullable<UInt8>?.none, tag: .context(5))
        }
        #expect(hexString(writer.bytes) == hexString(hex("15 36 00 04 01 05 2c 01 18 24 02 05 34 03 24 04 06 18")))
    }

    @Test("values and elements write themselves")
    func valuesAndElements() {
        var writer = TLVWriter()
        writer.put(TLVValue.list([anon(.signed(1))]), tag: .context(9))
        writer.put(ctx(1, .double(17.9)))
        #expect(hexString(writer.bytes) == hexString(hex("37 09 00 01 18 2b 01 66 66 66 66 66 e6 31 40")))
    }
}
