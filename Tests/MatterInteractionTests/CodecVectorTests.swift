import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV
import MatterTestSupport
import Testing

@Suite("IM codecs: the byte examples of interaction-model.md §3 and clusters.md")
struct CodecVectorTests {
    let vendorIDPath = AttributePathIB(
        endpoint: EndpointID(0), cluster: .basicInformation,
        attribute: .BasicInformation.vendorID)
    let togglePath = CommandPathIB(endpoint: EndpointID(1), cluster: .onOff, command: .OnOff.toggle)

    @Test func readRequestForVendorID() throws {
        let bytes = hex("15 3600 17 240200 240328 240402 18 18 2803 24ff0c 18")
        let message = ReadRequestMessage(attributeRequests: [vendorIDPath], isFabricFiltered: false)
        #expect(message.encode() == bytes)
        #expect(try ReadRequestMessage(decoding: bytes) == message)
    }

    @Test func reportDataForVendorID() throws {
        let bytes = hex("15 3601 15 3501 2600 78563412 3701 240200 240328 240402 18 2502 f1ff 18 18 18 2904 24ff0c 18")
        let message = ReportDataMessage(
            attributeReports: [
                .data(AttributeDataIB(dataVersion: 0x1234_5678, path: vendorIDPath, data: .unsigned(0xFFF1)))
            ], suppressResponse: true)
        #expect(message.encode() == bytes)
        let decoded = try ReportDataMessage(decoding: bytes)
        #expect(decoded == message)
        #expect(decoded.subscriptionID == nil)
        #expect(!decoded.moreChunkedMessages)
    }

    @Test func invokeToggle() throws {
        let bytes = hex("15 2800 2801 3602 15 3700 240001 240106 240202 18 3501 18 18 18 24ff0c 18")
        let message = InvokeRequestMessage(invokeRequests: [CommandDataIB(path: togglePath)])
        #expect(message.encode() == bytes)
        #expect(try InvokeRequestMessage(decoding: bytes) == message)
    }

    @Test func invokeResponseSuccess() throws {
        let bytes = hex("15 2800 3601 15 3501 3700 240001 240106 240202 18 3501 240000 18 18 18 18 24ff0c 18")
        let message = InvokeResponseMessage(invokeResponses: [
            .status(CommandStatusIB(path: togglePath, status: .success))
        ])
        #expect(message.encode() == bytes)
        #expect(try InvokeResponseMessage(decoding: bytes) == message)
    }

    @Test func statusResponseSuccess() throws {
        let bytes = hex("15 240000 24ff0c 18")
        #expect(StatusResponseMessage(status: .success).encode() == bytes)
        #expect(try StatusResponseMessage(decoding: bytes).status == .success)
    }

    @Test func doorLockWrongCodeEntryLimitWrite() throws {
        // clusters.md §15: AttributeDataIB for EP1/0x0101/0x0030 = u8 5, without DataVersion.
        let bytes = hex("15 3701 240201 25030101 240430 18 2402 05 18")
        let item = AttributeDataIB(
            dataVersion: nil,
            path: AttributePathIB(
                endpoint: EndpointID(1), cluster: .doorLock, attribute: .DoorLock.wrongCodeEntryLimit),
            data: .unsigned(5))
        var writer = TLVWriter()
        writer.put(item)
        #expect(writer.bytes == bytes)
        #expect(try AttributeDataIB(tlv: TLVElement.decode(bytes)) == item)
    }

    @Test func everyMessageRoundTrips() throws {
        let path = AttributePathIB(
            endpoint: EndpointID(1), cluster: .onOff, attribute: .OnOff.onOff, listIndex: .null,
            node: NodeID(5))
        let eventPath = EventPathIB(
            endpoint: EndpointID(2), cluster: .doorLock, event: .DoorLock.lockOperation,
            isUrgent: true)
        let filter = DataVersionFilterIB(endpoint: EndpointID(1), cluster: .onOff, dataVersion: 9)
        let read = ReadRequestMessage(
            attributeRequests: [path], eventRequests: [eventPath],
            eventFilters: [EventFilterIB(eventMin: 4)], isFabricFiltered: true,
            dataVersionFilters: [filter])
        #expect(try ReadRequestMessage(decoding: read.encode()) == read)
        let subscribe = SubscribeRequestMessage(
            keepSubscriptions: true, minIntervalFloor: 1, maxIntervalCeiling: 60,
            attributeRequests: [path], eventRequests: [eventPath],
            eventFilters: [EventFilterIB(eventMin: 1, node: NodeID(3))],
            isFabricFiltered: false, dataVersionFilters: [filter])
        #expect(try SubscribeRequestMessage(decoding: subscribe.encode()) == subscribe)
        let response = SubscribeResponseMessage(subscriptionID: 0xDEAD_BEEF, maxInterval: 3600)
        #expect(try SubscribeResponseMessage(decoding: response.encode()) == response)
        let event = EventDataIB(
            path: eventPath, eventNumber: 77, priority: 2, timestamp: .system(1234),
            data: .structure([TLVElement(tag: .context(0), .unsigned(1))]))
        let report = ReportDataMessage(
            subscriptionID: 7,
            attributeReports: [
                .status(AttributeStatusIB(path: path, status: StatusIB(.failure, clusterStatus: 3))),
                .data(AttributeDataIB(dataVersion: 1, path: path, data: .array([TLVElement(.utf8("x"))]))),
            ],
            eventReports: [
                .data(event),
                .status(EventStatusIB(path: eventPath, status: StatusIB(.unsupportedEvent))),
            ], moreChunkedMessages: true)
        #expect(try ReportDataMessage(decoding: report.encode()) == report)
        let write = WriteRequestMessage(
            suppressResponse: true, timedRequest: true,
            writeRequests: [
                AttributeDataIB(dataVersion: 2, path: path, data: .null)
            ], moreChunkedMessages: true)
        #expect(try WriteRequestMessage(decoding: write.encode()) == write)
        let writeResponse = WriteResponseMessage(writeResponses: [AttributeStatusIB(path: path, status: .success)])
        #expect(try WriteResponseMessage(decoding: writeResponse.encode()) == writeResponse)
        let invoke = InvokeRequestMessage(
            suppressResponse: false, timedRequest: true,
            invokeRequests: [
                CommandDataIB(path: togglePath, commandRef: 1),
                CommandDataIB(path: CommandPathIB(endpoint: nil, cluster: .onOff, command: .OnOff.on), commandRef: 2),
            ])
        #expect(try InvokeRequestMessage(decoding: invoke.encode()) == invoke)
        let invokeResponse = InvokeResponseMessage(
            invokeResponses: [
                .command(
                    CommandDataIB(
                        path: togglePath, fields: .structure([TLVElement(tag: .context(0), .bool(true))]),
                        commandRef: 1)),
                .status(CommandStatusIB(path: togglePath, status: StatusIB.cluster(2), commandRef: 2)),
            ], moreChunkedMessages: true)
        #expect(try InvokeResponseMessage(decoding: invokeResponse.encode()) == invokeResponse)
        let timed = TimedRequestMessage(timeout: 500)
        #expect(timed.encode() == hex("15 2500f401 24ff0c 18"))
        #expect(try TimedRequestMessage(decoding: timed.encode()) == timed)
    }

    @Test func decodersSkipUnknownTagsAcceptOtherRevisionsAndAnyOrder() throws {
        // StatusResponse with an unknown tag 7, revision 11, revision before status.
        let bytes = hex("15 24ff0b 240701 24007e 18")
        #expect(try StatusResponseMessage(decoding: bytes).status == .unsupportedAccess)
        // No revision at all is tolerated too.
        #expect(try StatusResponseMessage(decoding: hex("15 240000 18")).status == .success)
        // A path with an unknown member (tag 9) and a wide endpoint encoding (u16) still decodes.
        let path = try AttributePathIB(tlv: TLVElement.decode(hex("17 250201 00 240328 240909 18")))
        #expect(path.endpoint == EndpointID(1) && path.cluster == .basicInformation && path.attribute == nil)
    }

    @Test(arguments: [
        ("not a structure", "16 18"),
        ("tagged root", "35 01 240000 18"),
        ("truncated", "15 2400"),
        ("missing status", "15 24ff0c 18"),
        ("signed status", "15 200000 24ff0c 18"),
        ("status too wide", "15 250000 01 24ff0c 18"),
        ("trailing bytes", "15 240000 18 00"),
    ])
    func malformedStatusResponses(name: String, bytes: String) {
        #expect(throws: InteractionError.self, "\(name)") { try StatusResponseMessage(decoding: hex(bytes)) }
    }

    @Test func malformedRequestsAreRejected() {
        // ReadRequest without the required IsFabricFiltered.
        #expect(throws: InteractionError.self) {
            try ReadRequestMessage(decoding: hex("15 3600 17 240200 18 18 24ff0c 18"))
        }
        // AttributeRequests that is a structure, not an array.
        #expect(throws: InteractionError.self) {
            try ReadRequestMessage(decoding: hex("15 3500 18 2803 24ff0c 18"))
        }
        // CommandPathIB without a cluster.
        #expect(throws: InteractionError.self) {
            try InvokeRequestMessage(
                decoding: hex("15 2800 2801 3602 15 3700 240001 240202 18 3501 18 18 18 24ff0c 18"))
        }
        // AttributeReportIB with neither status nor data.
        #expect(throws: InteractionError.self) {
            try ReportDataMessage(decoding: hex("15 3601 15 18 18 24ff0c 18"))
        }
        // InvokeRequest without InvokeRequests.
        #expect(throws: InteractionError.self) { try InvokeRequestMessage(decoding: hex("15 2800 2801 24ff0c 18")) }
    }

    @Test func statusNames() {
        #expect(IMStatus.unsupportedAccess.name == "UNSUPPORTED_ACCESS")
        #expect(IMStatus.needsTimedInteraction.description == "NEEDS_TIMED_INTERACTION (0xC6)")
        #expect(IMStatus(name: "timed-request-mismatch") == .timedRequestMismatch)
        #expect(IMStatus(rawValue: 0x02).name == nil)
        #expect(StatusIB.cluster(3).description == "FAILURE (0x01), cluster status 3")
    }
}
