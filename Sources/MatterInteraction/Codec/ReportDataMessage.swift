import MatterTLV

/// ReportData (0x05): attribute and event reports, possibly one chunk of several.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | SubscriptionId | uint32, subscriptions only |
/// | 1 | AttributeReports | array of AttributeReportIB, optional |
/// | 2 | EventReports | array of EventReportIB, optional |
/// | 3 | MoreChunkedMessages | bool, written only when true |
/// | 4 | SuppressResponse | bool, written only when true |
/// | 0xFF | InteractionModelRevision | uint8 |
package struct ReportDataMessage: InteractionMessage, Hashable {
    package static let opcode = InteractionOpcode.reportData
    package var subscriptionID: UInt32?
    package var attributeReports: [AttributeReportIB]
    package var eventReports: [EventReportIB]
    package var moreChunkedMessages: Bool
    package var suppressResponse: Bool

    package init(
        subscriptionID: UInt32? = nil, attributeReports: [AttributeReportIB] = [],
        eventReports: [EventReportIB] = [], moreChunkedMessages: Bool = false,
        suppressResponse: Bool = false
    ) {
        self.subscriptionID = subscriptionID
        self.attributeReports = attributeReports
        self.eventReports = eventReports
        self.moreChunkedMessages = moreChunkedMessages
        self.suppressResponse = suppressResponse
    }

    package func encode() -> [UInt8] {
        encodeMessage { w in
            w.put(subscriptionID, tag: .context(0))
            w.putArrayIfNotEmpty(attributeReports, tag: 1)
            w.putArrayIfNotEmpty(eventReports, tag: 2)
            w.putFlag(moreChunkedMessages, tag: 3)
            w.putFlag(suppressResponse, tag: 4)
        }
    }

    package init(decoding bytes: [UInt8]) throws(InteractionError) {
        self = try decodeMessage(bytes, "ReportData") { root throws(TLVError) in
            ReportDataMessage(
                subscriptionID: try root.optional(0),
                attributeReports: try root.array(1, name: "AttributeReports"),
                eventReports: try root.array(2, name: "EventReports"),
                moreChunkedMessages: try root.optional(3) ?? false,
                suppressResponse: try root.optional(4) ?? false)
        }
    }
}
