import MatterTLV

/// ReadRequest (0x02).
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | AttributeRequests | array of AttributePathIB, optional |
/// | 1 | EventRequests | array of EventPathIB, optional |
/// | 2 | EventFilters | array of EventFilterIB, optional |
/// | 3 | IsFabricFiltered | bool (required) |
/// | 4 | DataVersionFilters | array of DataVersionFilterIB, optional |
/// | 0xFF | InteractionModelRevision | uint8 |
///
/// Empty arrays are not written.
package struct ReadRequestMessage: InteractionMessage, Hashable {
    package static let opcode = InteractionOpcode.readRequest
    package var attributeRequests: [AttributePathIB]
    package var eventRequests: [EventPathIB]
    package var eventFilters: [EventFilterIB]
    package var isFabricFiltered: Bool
    package var dataVersionFilters: [DataVersionFilterIB]

    package init(
        attributeRequests: [AttributePathIB] = [], eventRequests: [EventPathIB] = [],
        eventFilters: [EventFilterIB] = [], isFabricFiltered: Bool = true,
        dataVersionFilters: [DataVersionFilterIB] = []
    ) {
        self.attributeRequests = attributeRequests
        self.eventRequests = eventRequests
        self.eventFilters = eventFilters
        self.isFabricFiltered = isFabricFiltered
        self.dataVersionFilters = dataVersionFilters
    }

    package func encode() -> [UInt8] {
        encodeMessage { w in
            w.putArrayIfNotEmpty(attributeRequests, tag: 0)
            w.putArrayIfNotEmpty(eventRequests, tag: 1)
            w.putArrayIfNotEmpty(eventFilters, tag: 2)
            w.put(isFabricFiltered, tag: .context(3))
            w.putArrayIfNotEmpty(dataVersionFilters, tag: 4)
        }
    }

    package init(decoding bytes: [UInt8]) throws(InteractionError) {
        self = try decodeMessage(bytes, "ReadRequest") { root throws(TLVError) in
            ReadRequestMessage(
                attributeRequests: try root.array(0, name: "AttributeRequests"),
                eventRequests: try root.array(1, name: "EventRequests"),
                eventFilters: try root.array(2, name: "EventFilters"),
                isFabricFiltered: try root.required(3),
                dataVersionFilters: try root.array(4, name: "DataVersionFilters"))
        }
    }
}
