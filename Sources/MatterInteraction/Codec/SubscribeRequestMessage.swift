import MatterTLV

/// SubscribeRequest (0x03). Note IsFabricFiltered is tag 7 here (3 in ReadRequest); tag 6 is unused.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | KeepSubscriptions | bool |
/// | 1 | MinIntervalFloor | uint16 s |
/// | 2 | MaxIntervalCeiling | uint16 s |
/// | 3 | AttributeRequests | array of AttributePathIB, optional |
/// | 4 | EventRequests | array of EventPathIB, optional |
/// | 5 | EventFilters | array of EventFilterIB, optional |
/// | 7 | IsFabricFiltered | bool |
/// | 8 | DataVersionFilters | array of DataVersionFilterIB, optional |
/// | 0xFF | InteractionModelRevision | uint8 |
package struct SubscribeRequestMessage: InteractionMessage, Hashable {
    package static let opcode = InteractionOpcode.subscribeRequest
    package var keepSubscriptions: Bool
    package var minIntervalFloor: UInt16
    package var maxIntervalCeiling: UInt16
    package var attributeRequests: [AttributePathIB]
    package var eventRequests: [EventPathIB]
    package var eventFilters: [EventFilterIB]
    package var isFabricFiltered: Bool
    package var dataVersionFilters: [DataVersionFilterIB]

    package init(
        keepSubscriptions: Bool = false, minIntervalFloor: UInt16, maxIntervalCeiling: UInt16,
        attributeRequests: [AttributePathIB] = [], eventRequests: [EventPathIB] = [],
        eventFilters: [EventFilterIB] = [], isFabricFiltered: Bool = true,
        dataVersionFilters: [DataVersionFilterIB] = []
    ) {
        self.keepSubscriptions = keepSubscriptions
        self.minIntervalFloor = minIntervalFloor
        self.maxIntervalCeiling = maxIntervalCeiling
        self.attributeRequests = attributeRequests
        self.eventRequests = eventRequests
        self.eventFilters = eventFilters
        self.isFabricFiltered = isFabricFiltered
        self.dataVersionFilters = dataVersionFilters
    }

    package func encode() -> [UInt8] {
        encodeMessage { w in
            w.put(keepSubscriptions, tag: .context(0))
            w.put(minIntervalFloor, tag: .context(1))
            w.put(maxIntervalCeiling, tag: .context(2))
            w.putArrayIfNotEmpty(attributeRequests, tag: 3)
            w.putArrayIfNotEmpty(eventRequests, tag: 4)
            w.putArrayIfNotEmpty(eventFilters, tag: 5)
            w.put(isFabricFiltered, tag: .context(7))
            w.putArrayIfNotEmpty(dataVersionFilters, tag: 8)
        }
    }

    package init(decoding bytes: [UInt8]) throws(InteractionError) {
        self = try decodeMessage(bytes, "SubscribeRequest") { root throws(TLVError) in
            SubscribeRequestMessage(
                keepSubscriptions: try root.required(0),
                minIntervalFloor: try root.required(1),
                maxIntervalCeiling: try root.required(2),
                attributeRequests: try root.array(3, name: "AttributeRequests"),
                eventRequests: try root.array(4, name: "EventRequests"),
                eventFilters: try root.array(5, name: "EventFilters"),
                isFabricFiltered: try root.required(7),
                dataVersionFilters: try root.array(8, name: "DataVersionFilters"))
        }
    }
}

/// SubscribeResponse (0x04): the subscription is established.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | SubscriptionId | uint32 |
/// | 2 | MaxInterval | uint16 s (tag 1 is unused) |
/// | 0xFF | InteractionModelRevision | uint8 |
package struct SubscribeResponseMessage: InteractionMessage, Hashable {
    package static let opcode = InteractionOpcode.subscribeResponse
    package var subscriptionID: UInt32
    package var maxInterval: UInt16

    package init(subscriptionID: UInt32, maxInterval: UInt16) {
        self.subscriptionID = subscriptionID
        self.maxInterval = maxInterval
    }

    package func encode() -> [UInt8] {
        encodeMessage { w in
            w.put(subscriptionID, tag: .context(0))
            w.put(maxInterval, tag: .context(2))
        }
    }

    package init(decoding bytes: [UInt8]) throws(InteractionError) {
        self = try decodeMessage(bytes, "SubscribeResponse") { root throws(TLVError) in
            SubscribeResponseMessage(subscriptionID: try root.required(0), maxInterval: try root.required(2))
        }
    }
}
