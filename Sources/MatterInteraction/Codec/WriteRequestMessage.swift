import MatterTLV

/// WriteRequest (0x06).
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | SuppressResponse | bool, optional |
/// | 1 | TimedRequest | bool |
/// | 2 | WriteRequests | array of AttributeDataIB |
/// | 3 | MoreChunkedMessages | bool, written only when true |
/// | 0xFF | InteractionModelRevision | uint8 |
package struct WriteRequestMessage: InteractionMessage, Hashable {
    package static let opcode = InteractionOpcode.writeRequest
    package var suppressResponse: Bool
    package var timedRequest: Bool
    package var writeRequests: [AttributeDataIB]
    package var moreChunkedMessages: Bool

    package init(
        suppressResponse: Bool = false, timedRequest: Bool = false, writeRequests: [AttributeDataIB],
        moreChunkedMessages: Bool = false
    ) {
        self.suppressResponse = suppressResponse
        self.timedRequest = timedRequest
        self.writeRequests = writeRequests
        self.moreChunkedMessages = moreChunkedMessages
    }

    package func encode() -> [UInt8] {
        encodeMessage { w in
            w.put(suppressResponse, tag: .context(0))
            w.put(timedRequest, tag: .context(1))
            w.putArray(writeRequests, tag: .context(2))
            w.putFlag(moreChunkedMessages, tag: 3)
        }
    }

    package init(decoding bytes: [UInt8]) throws(InteractionError) {
        self = try decodeMessage(bytes, "WriteRequest") { root throws(TLVError) in
            guard root[context: 2] != nil else { throw .missingElement(tag: .context(2)) }
            return WriteRequestMessage(
                suppressResponse: try root.optional(0) ?? false,
                timedRequest: try root.optional(1) ?? false,
                writeRequests: try root.array(2, name: "WriteRequests"),
                moreChunkedMessages: try root.optional(3) ?? false)
        }
    }
}

/// WriteResponse (0x07): one status per processed AttributeDataIB.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | WriteResponses | array of AttributeStatusIB |
/// | 0xFF | InteractionModelRevision | uint8 |
package struct WriteResponseMessage: InteractionMessage, Hashable {
    package static let opcode = InteractionOpcode.writeResponse
    package var writeResponses: [AttributeStatusIB]

    package init(writeResponses: [AttributeStatusIB]) { self.writeResponses = writeResponses }

    package func encode() -> [UInt8] {
        encodeMessage { w in w.putArray(writeResponses, tag: .context(0)) }
    }

    package init(decoding bytes: [UInt8]) throws(InteractionError) {
        self = try decodeMessage(bytes, "WriteResponse") { root throws(TLVError) in
            WriteResponseMessage(writeResponses: try root.array(0, name: "WriteResponses"))
        }
    }
}
