package import MatterCore
package import MatterTLV

/// EventFilterIB (structure): report only events numbered `eventMin` or later.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | Node | uint64, optional |
/// | 1 | EventMin | uint64 |
package struct EventFilterIB: Hashable, Sendable {
    package var node: NodeID?
    package var eventMin: UInt64

    package init(eventMin: UInt64, node: NodeID? = nil) {
        self.eventMin = eventMin
        self.node = node
    }
}

extension EventFilterIB: TLVEncodable, TLVDecodable {
    package func encode(to writer: inout TLVWriter, tag: TLVTag) {
        writer.putStructure(tag: tag) { w in
            w.put(node?.rawValue, tag: .context(0))
            w.put(eventMin, tag: .context(1))
        }
    }

    package init(tlv element: TLVElement) throws(TLVError) {
        _ = try element.ibMembers("EventFilterIB")
        node = try element.optional(0, UInt64.self).map(NodeID.init)
        eventMin = try element.required(1)
    }
}
