import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV
import MatterTestSupport
import Testing

@Suite("IM codecs against the SDK controller transcript")
struct TranscriptCodecTests {
    /// Decodes a payload with the message type its opcode names, returning the re-encoding.
    func decodeAndReencode(_ message: TranscriptMessage) throws -> [UInt8] {
        let bytes = hex(message.payload)
        switch InteractionOpcode(rawValue: message.opcode) {
        case .statusResponse: return try StatusResponseMessage(decoding: bytes).encode()
        case .readRequest: return try ReadRequestMessage(decoding: bytes).encode()
        case .subscribeRequest: return try SubscribeRequestMessage(decoding: bytes).encode()
        case .subscribeResponse: return try SubscribeResponseMessage(decoding: bytes).encode()
        case .reportData: return try ReportDataMessage(decoding: bytes).encode()
        case .writeRequest: return try WriteRequestMessage(decoding: bytes).encode()
        case .writeResponse: return try WriteResponseMessage(decoding: bytes).encode()
        case .invokeRequest: return try InvokeRequestMessage(decoding: bytes).encode()
        case .invokeResponse: return try InvokeResponseMessage(decoding: bytes).encode()
        case .timedRequest: return try TimedRequestMessage(decoding: bytes).encode()
        default:
            Issue.record("unexpected opcode \(message.opcode) in #\(message.seq)")
            return []
        }
    }

    @Test func everyControllerMessageDecodesAndReencodesByteForByte() throws {
        let fromController = transcriptMessages.filter(\.fromController)
        #expect(fromController.count == 28)
        for message in fromController {
            #expect(try decodeAndReencode(message) == hex(message.payload), "#\(message.seq) \(message.name)")
        }
    }

    @Test func everyDeviceMessageDecodes() throws {
        for message in transcriptMessages where !message.fromController {
            // The device sent revision 11 and some non-minimal widths; decoding must still succeed.
            _ = try decodeAndReencode(message)
        }
    }

    @Test func commissioningReadHasWildcardsAndNoFabricFilter() throws {
        let read = try ReadRequestMessage(decoding: hex(transcript(7).payload))
        #expect(read.attributeRequests.count == 9)
        #expect(!read.isFabricFiltered)
        // 0/0x38/* : attribute wildcard over TimeSynchronization.
        #expect(read.attributeRequests[7] == AttributePathIB(endpoint: EndpointID(0), cluster: .timeSynchronization))
        // */0x31/0xFFFC : endpoint wildcard, FeatureMap.
        #expect(read.attributeRequests[8] == AttributePathIB(cluster: .networkCommissioning, attribute: .featureMap))
        #expect(read.attributeRequests[8].concrete == nil)
    }

    @Test func deviceReportValues() throws {
        let report = try ReportDataMessage(decoding: hex(transcript(8).payload))
        #expect(report.suppressResponse)
        #expect(report.attributeReports.count == 8)
        guard case .data(let info) = report.attributeReports[2] else {
            Issue.record("not data")
            return
        }
        #expect(info.dataVersion == 4_276_691_395)
        #expect(
            info.path.concrete
                == ConcreteAttributePath(
                    0, .generalCommissioning,
                    .GeneralCommissioning.basicCommissioningInfo))
        #expect(
            info.data
                == .structure([
                    TLVElement(tag: .context(0), .unsigned(10)),
                    TLVElement(tag: .context(1), .unsigned(900)),
                ]))
        let read = try ReportDataMessage(decoding: hex(transcript(47).payload))
        guard case .data(let level) = read.attributeReports[1] else {
            Issue.record("not data")
            return
        }
        #expect(level.data == .null)
    }

    @Test func invokeMessages() throws {
        let arm = try InvokeRequestMessage(decoding: hex(transcript(13).payload))
        #expect(!arm.suppressResponse && !arm.timedRequest)
        #expect(
            arm.invokeRequests == [
                CommandDataIB(
                    path: CommandPathIB(
                        endpoint: EndpointID(0), cluster: .generalCommissioning,
                        command: .GeneralCommissioning.armFailSafe),
                    fields: .structure([
                        TLVElement(tag: .context(0), .unsigned(10)), TLVElement(tag: .context(1), .unsigned(3)),
                    ]))
            ])
        let armResponse = try InvokeResponseMessage(decoding: hex(transcript(14).payload))
        guard case .command(let data) = armResponse.invokeResponses.first else {
            Issue.record("no command")
            return
        }
        #expect(data.path.command == .GeneralCommissioning.armFailSafeResponse)
        #expect(
            data.fields
                == .structure([TLVElement(tag: .context(0), .unsigned(0)), TLVElement(tag: .context(1), .utf8(""))]))
        let rootStatus = try InvokeResponseMessage(decoding: hex(transcript(32).payload))
        #expect(
            rootStatus.invokeResponses == [
                .status(
                    CommandStatusIB(
                        path: CommandPathIB(
                            endpoint: EndpointID(0), cluster: .operationalCredentials,
                            command: .OperationalCredentials.addTrustedRootCertificate), status: .success))
            ])
        let toggle = try InvokeRequestMessage(decoding: hex(transcript(61).payload))
        #expect(toggle.invokeRequests.first?.fields == .structure([]))
    }

    @Test func subscriptionMessages() throws {
        let request = try SubscribeRequestMessage(decoding: hex(transcript(79).payload))
        #expect(!request.keepSubscriptions && request.minIntervalFloor == 0 && request.maxIntervalCeiling == 10)
        #expect(request.isFabricFiltered)
        #expect(
            request.attributeRequests == [
                AttributePathIB(ConcreteAttributePath(1, .onOff, .OnOff.onOff)),
                AttributePathIB(ConcreteAttributePath(1, .levelControl, .LevelControl.currentLevel)),
            ])
        let priming = try ReportDataMessage(decoding: hex(transcript(80).payload))
        #expect(priming.subscriptionID == 0x9C60 && !priming.suppressResponse && !priming.moreChunkedMessages)
        let response = try SubscribeResponseMessage(decoding: hex(transcript(83).payload))
        #expect(response == SubscribeResponseMessage(subscriptionID: 0x9C60, maxInterval: 10))
        let change = try ReportDataMessage(decoding: hex(transcript(87).payload))
        #expect(change.attributeReports.count == 1)
        #expect(try StatusResponseMessage(decoding: hex(transcript(89).payload)).status == .success)
    }

    func transcript(_ seq: Int) -> TranscriptMessage {
        transcriptMessages.first { $0.seq == seq }
            ?? TranscriptMessage(
                seq: seq, fromController: false, opcode: 0,
                name: "missing", payload: "")
    }
}
