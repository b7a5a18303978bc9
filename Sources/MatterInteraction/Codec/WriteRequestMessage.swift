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
public struct WriteRequestMessage: InteractionMessage, Hashable {
    public static let opcode = InteractionOpcode.writeRequest
    public var suppressResponse: Bool
    public var timedRequest: Bool
    public var writeRequests: [AttributeDataIB]
    public var moreChunkedMessages: Bool

    public init(
        suppressResponse: Bool = false, timedRequest: Bool = false, writeRequests: [AttributeDataIB],
        moreChunkedMessages: Bool = false
    ) {
        self.suppressResponse = suppressResponse
        self.timedRequest = timedRequest
        self.writeRequests = writeRequests
        self.moreChunkedMessages = moreChunkedMessages
    }

    public func encode() -> [UInt8] {
        encodeMessage { w in
            w.put(suppressResponse, tag: .context(0))
            w.put(timedRequest, tag: .context(1))
            w.putArray(writeRequests, tag: .context(2))
            w.putFlag(moreChunkedMessages, tag: 3)
        }
    }

    public init(decoding bytes: [UInt8]) throws(InteractionError) {
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
public struct WriteResponseMessage: InteractionMessage, Hashable {
    public static let opcode = InteractionOpcode.writeResponse
    public var writeResponses: [AttributeStatusIB]

    public init(writeResponses: [AttributeStatusIB]) { self.writeResponses = writeResponses }

    public func encode() -> [UInt8] {
        encodeMessage { w in w.putArray(writeResponses, tag: .context(0)) }
    }

    public init(decoding bytes: [UInt8]) throws(InteractionError) {
        self = try decodeMessage(bytes, "WriteResponse") { root throws(TLVError) in
            WriteResponseMessage(writeResponses: try root.array(0, name: "WriteResponses"))
        }
    }
}
