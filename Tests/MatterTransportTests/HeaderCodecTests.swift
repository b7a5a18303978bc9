import MatterCore
import MatterTestSupport
import Testing

@testable import MatterTransport

/// Headers captured from chip-tool talking to a device (message-layer digest §2).
@Suite("Message and payload header codecs")
struct HeaderCodecTests {
    @Test func decodesCapturedPBKDFParamRequestHeaders() throws {
        let datagram = try #require(Hex.decode("04 0000 00 0a4ff217 7ea0c8a7cb6a6352 05 20 d364 0000 15 30 01 20"))
        var reader = ByteReader(datagram)
        let header = try MessageHeader(from: &reader)
        #expect(
            header
                == MessageHeader(
                    sessionID: 0, messageCounter: 0x17F2_4F0A,
                    source: NodeID(0x5263_6ACB_A7C8_A07E)))
        #expect(header.isUnsecured)
        let payload = try PayloadHeader(from: &reader)
        #expect(
            payload
                == PayloadHeader(
                    isInitiator: true, needsAck: true, opcode: SecureChannelOpcode.pbkdfParamRequest,
                    exchangeID: 0x64D3, protocolID: .secureChannel))
        #expect(reader.readRest() == [0x15, 0x30, 0x01, 0x20])
        // Re-encoding gives the captured bytes.
        var writer = ByteWriter()
        header.encode(into: &writer)
        payload.encode(into: &writer)
        #expect(writer.bytes == Array(datagram.prefix(22)))
    }

    @Test func decodesCapturedPBKDFParamResponseHeaders() throws {
        let datagram = try #require(Hex.decode("01 0000 00 21871279 7ea0c8a7cb6a6352 06 21 d364 0000 0a4ff217 15"))
        var reader = ByteReader(datagram)
        let header = try MessageHeader(from: &reader)
        #expect(header.destination == .node(NodeID(0x5263_6ACB_A7C8_A07E)))
        #expect(header.source == nil)
        #expect(header.messageCounter == 0x7912_8721)
        let payload = try PayloadHeader(from: &reader)
        #expect(!payload.isInitiator)
        #expect(payload.needsAck)
        #expect(payload.acknowledgedCounter == 0x17F2_4F0A)
        #expect(payload.opcode == SecureChannelOpcode.pbkdfParamResponse)
        var writer = ByteWriter()
        header.encode(into: &writer)
        payload.encode(into: &writer)
        #expect(writer.bytes == Array(datagram.dropLast()))
    }

    @Test func vendorIDPrecedesProtocolIDAsTheSDKWritesIt() throws {
        let header = PayloadHeader(
            isInitiator: true, needsAck: false, opcode: 7, exchangeID: 0x1234,
            protocolID: ProtocolID(vendorID: 0xFFF1, protocolNumber: 0x0002))
        var writer = ByteWriter()
        header.encode(into: &writer)
        #expect(writer.bytes == [0x11, 0x07, 0x34, 0x12, 0xF1, 0xFF, 0x02, 0x00])
        var reader = ByteReader(writer.bytes)
        #expect(try PayloadHeader(from: &reader) == header)
    }

    @Test func extensionsAreSkipped() throws {
        // MX set with a 3-byte extension, then the payload; SX set in the payload header likewise.
        let bytes: [UInt8] = [
            0x00, 0x05, 0x00, 0x20, 1, 0, 0, 0, 0x03, 0x00, 0xAA, 0xBB, 0xCC,
            0x09, 0x02, 0x01, 0x00, 0x01, 0x00, 0x02, 0x00, 0xDE, 0xAD, 0x99,
        ]
        var reader = ByteReader(bytes)
        let header = try MessageHeader(from: &reader)
        #expect(header.sessionID == 5)
        let payload = try PayloadHeader(from: &reader)
        #expect(payload.protocolID == .interactionModel)
        #expect(reader.readRest() == [0x99])
    }

    @Test(arguments: [
        ([UInt8]([0x10, 0, 0, 0, 0, 0, 0, 0]), MessageCodecError.unsupportedVersion(1)),
        ([0x03, 0, 0, 0, 0, 0, 0, 0], .reservedDestinationSize),
        ([0x00, 1, 0, 0x02, 0, 0, 0, 0], .reservedSessionType(2)),
        ([0x00, 1, 0, 0x01, 0, 0, 0, 0], .invalidGroupAddressing),
        ([0x02, 1, 0, 0x00, 0, 0, 0, 0, 1, 0], .invalidGroupAddressing),
    ])
    func malformedHeadersAreRejected(bytes: [UInt8], expected: MessageCodecError) {
        var reader = ByteReader(bytes)
        #expect(throws: expected) { try MessageHeader(from: &reader) }
    }

    @Test func everyTruncationOfAHeaderThrows() throws {
        let datagram = try #require(Hex.decode("05 0000 00 0a4ff217 7ea0c8a7cb6a6352 0100000000000000 05 20 d364 0000"))
        for length in 0..<datagram.count {
            var reader = ByteReader(Array(datagram.prefix(length)))
            #expect(throws: MessageCodecError.self) {
                _ = try MessageHeader(from: &reader)
                _ = try PayloadHeader(from: &reader)
            }
        }
    }

    /// A StatusReport prints in words first, the codes after (issue 35): what a user sees when a
    /// handshake is refused.
    @Test func statusReportsReadAsWords() {
        let refused = StatusReport(generalCode: .failure, protocolCode: StatusReport.SecureChannelCode.invalidParameter)
        #expect(
            refused.description.hasPrefix("FAILURE, INVALID_PARAMETER: the peer refused the handshake's parameters"))
        #expect(refused.description.hasSuffix("(general 1, protocol 0x0000, code 0x0002)"))
        let roots = StatusReport(generalCode: .failure, protocolCode: StatusReport.SecureChannelCode.noSharedTrustRoots)
        #expect(roots.description.contains("NO_SHARED_TRUST_ROOTS: no shared trust roots"))
        #expect(StatusReport.busy(minimumWaitMilliseconds: 500).description.hasPrefix("BUSY, BUSY: the peer is busy"))
        let odd = StatusReport(generalCode: .init(rawValue: 99), protocolCode: 0x1234)
        #expect(odd.description.hasPrefix("general code 99, code 0x1234 (general 99"))
    }

    @Test func statusReportRoundTripsAndDecodesBusy() throws {
        #expect(StatusReport.sessionEstablished.encoded == [0, 0, 0, 0, 0, 0, 0, 0])
        let busy = StatusReport.busy(minimumWaitMilliseconds: 500)
        #expect(busy.encoded == [0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0xF4, 0x01])
        #expect(try StatusReport(decoding: busy.encoded) == busy)
        #expect(throws: MessageCodecError.self) { try StatusReport(decoding: [0, 0, 0]) }
    }
}
