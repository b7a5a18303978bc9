import MatterTestSupport
import Testing

@testable import MatterCore

@Suite("Byte reader and writer")
struct ByteReaderTests {
    @Test func roundTripsLittleEndianIntegers() throws {
        var w = ByteWriter()
        w.writeUInt8(0xAB)
        w.writeLE(UInt16(0x1234))
        w.writeLE(UInt32(0xDEAD_BEEF))
        w.writeLE(UInt64(0x0102_0304_0506_0708))
        #expect(w.bytes == [0xAB, 0x34, 0x12, 0xEF, 0xBE, 0xAD, 0xDE, 8, 7, 6, 5, 4, 3, 2, 1])
        var r = ByteReader(w.bytes)
        #expect(try r.readUInt8() == 0xAB)
        #expect(try r.readLE(UInt16.self) == 0x1234)
        #expect(try r.readLE(UInt32.self) == 0xDEAD_BEEF)
        #expect(try r.readLE(UInt64.self) == 0x0102_0304_0506_0708)
        #expect(r.isAtEnd)
    }

    @Test func truncatedInputThrowsWithPosition() {
        var r = ByteReader([1, 2, 3])
        #expect(throws: ByteReaderError(needed: 4, offset: 0, available: 3)) { try r.readLE(UInt32.self) }
        #expect(throws: ByteReaderError(needed: 5, offset: 0, available: 3)) { try r.readBytes(5) }
        #expect(throws: ByteReaderError(needed: -1, offset: 0, available: 3)) { try r.skip(-1) }
    }

    @Test func hexRoundTripAndRejects() {
        #expect(Hex.encode([0x00, 0xAB, 0xFF]) == "00abff")
        #expect(Hex.decode("00 ab:FF") == [0x00, 0xAB, 0xFF])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
    }

    @Test func identifiersPrintAsHex() {
        #expect(NodeID(0x1234).description == "0x0000000000001234")
        #expect(VendorID.testVendor1.description == "0xFFF1")
        #expect(NodeID(0xFFFF_FFF0_0000_0000).isOperational == false)
    }

    @Test func manualClockMovesOnlyWhenAdvanced() {
        let clock = ManualClock(startingAt: 100)
        #expect(clock.nowMilliseconds() == 100)
        clock.advance(by: 250)
        #expect(clock.nowMilliseconds() == 350)
    }
}
