import MatterTLV
import MatterTestSupport
import Testing

/// A PBKDFParamRequest captured from chip-tool (matter.js MessageCodecTest, also in rs-matter's tests):
///
/// ```
/// 15                     anonymous structure
/// 30 01 20 <32 bytes>    1: initiatorRandom
/// 25 02 33 dc            2: initiatorSessionId, uint16 0xdc33
/// 24 03 00               3: passcodeId, 0
/// 28 04                  4: hasPBKDFParameters, false
/// 35 05                  5: initiatorSessionParams {
///    25 01 88 13              1: SESSION_IDLE_INTERVAL 5000
///    25 02 2c 01              2: SESSION_ACTIVE_INTERVAL 300
/// 18 18                  }}
/// ```
@Suite("PBKDFParamRequest captured from chip-tool")
struct PBKDFParamRequestTests {
    static let payload = hex(
        "153001204715a406c6b0496ad52039e347db8528cb69a1cb2fce6f2318552ae65e103aca250233dc240300280435052501881325022c011818"
    )
    static let random = hex("4715a406c6b0496ad52039e347db8528cb69a1cb2fce6f2318552ae65e103aca")

    static let model = anon(
        .structure([
            ctx(1, .bytes(random)),
            ctx(2, .unsigned(0xDC33)),
            ctx(3, .unsigned(0)),
            ctx(4, .bool(false)),
            ctx(5, .structure([ctx(1, .unsigned(5000)), ctx(2, .unsigned(300))])),
        ])
    )

    @Test func decodesToTheModelAndEncodesBack() throws {
        let element = try TLVElement.decode(Self.payload)
        #expect(element == Self.model)
        #expect(element.encoded() == Self.payload)
        #expect(element[context: 2]?.uint == 0xDC33)
        #expect(element[context: 5]?[context: 1]?.uint == 5000)
        #expect(element[context: 9] == nil)
    }

    @Test func readsMemberByMemberWithTheStreamingReader() throws {
        var reader = TLVReader(Self.payload)
        try reader.enterContainer(.structure)
        #expect(try reader.readBytes(tag: .context(1)) == Self.random)
        #expect(try reader.readUInt16(tag: .context(2)) == 0xDC33)
        #expect(try reader.readUInt16(tag: .context(3)) == 0)
        #expect(try reader.readBool(tag: .context(4)) == false)
        let (idle, active) = try reader.readContainer(.structure, tag: .context(5)) { r throws(TLVError) in
            (try r.readIfPresent(UInt32.self, tag: .context(1)), try r.readIfPresent(UInt32.self, tag: .context(2)))
        }
        #expect(idle == 5000)
        #expect(active == 300)
        try reader.exitContainer()
        try reader.expectEnd()
    }

    @Test func writerProducesTheCapturedBytes() {
        var writer = TLVWriter()
        writer.putStructure { w in
            w.put(Self.random, tag: .context(1))
            w.put(UInt16(0xDC33), tag: .context(2))
            w.put(UInt16(0), tag: .context(3))
            w.put(false, tag: .context(4))
            w.putStructure(tag: .context(5)) { params in
                params.put(UInt32(5000), tag: .context(1))
                params.put(UInt32(300), tag: .context(2))
            }
        }
        #expect(writer.bytes == Self.payload)
        #expect(writer.openContainers == 0)
    }
}
