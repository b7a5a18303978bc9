import MatterTLV

/// InvokeRequest (0x08).
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | SuppressResponse | bool |
/// | 1 | TimedRequest | bool |
/// | 2 | InvokeRequests | array of CommandDataIB |
/// | 0xFF | InteractionModelRevision | uint8 |
package struct InvokeRequestMessage: InteractionMessage, Hashable {
    package static let opcode = InteractionOpcode.invokeRequest
    package var suppressResponse: Bool
    package var timedRequest: Bool
    package var invokeRequests: [CommandDataIB]

    package init(suppressResponse: Bool = false, timedRequest: Bool = false, invokeRequests: [CommandDataIB]) {
        self.suppressResponse = suppressResponse
        self.timedRequest = timedRequest
        self.invokeRequests = invokeRequests
    }

    package func encode() -> [UInt8] {
        encodeMessage { w in
            w.put(suppressResponse, tag: .context(0))
            w.put(timedRequest, tag: .context(1))
            w.putArray(invokeRequests, tag: .context(2))
        }
    }

    package init(decoding bytes: [UInt8]) throws(InteractionError) {
        self = try decodeMessage(bytes, "InvokeRequest") { root throws(TLVError) in
            guard root[context: 2] != nil else { throw .missingElement(tag: .context(2)) }
            return InvokeRequestMessage(
                suppressResponse: try root.optional(0) ?? false,
                timedRequest: try root.optional(1) ?? false,
                invokeRequests: try root.array(2, name: "InvokeRequests"))
        }
    }
}

/// InvokeResponse (0x09): one InvokeResponseIB per invoked command.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | SuppressResponse | bool (always false, still written) |
/// | 1 | InvokeResponses | array of InvokeResponseIB |
/// | 2 | MoreChunkedMessages | bool, written only when true |
/// | 0xFF | InteractionModelRevision | uint8 |
package struct InvokeResponseMessage: InteractionMessage, Hashable {
    package static let opcode = InteractionOpcode.invokeResponse
    package var suppressResponse: Bool
    package var invokeResponses: [InvokeResponseIB]
    package var moreChunkedMessages: Bool

    package init(suppressResponse: Bool = false, invokeResponses: [InvokeResponseIB], moreChunkedMessages: Bool = false)
    {
        self.suppressResponse = suppressResponse
        self.invokeResponses = invokeResponses
        self.moreChunkedMessages = moreChunkedMessages
    }

    package func encode() -> [UInt8] {
        encodeMessage { w in
            w.put(suppressResponse, tag: .context(0))
            w.putArray(invokeResponses, tag: .context(1))
            w.putFlag(moreChunkedMessages, tag: 2)
        }
    }

    package init(decoding bytes: [UInt8]) throws(InteractionError) {
        self = try decodeMessage(bytes, "InvokeResponse") { root throws(TLVError) in
            InvokeResponseMessage(
                suppressResponse: try root.optional(0) ?? false,
                invokeResponses: try root.array(1, name: "InvokeResponses"),
                moreChunkedMessages: try root.optional(2) ?? false)
        }
    }
}
