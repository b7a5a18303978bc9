import MatterTLV

/// TimedRequest (0x0A): opens a window for a write or invoke on the same exchange.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | Timeout | uint16 ms |
/// | 0xFF | InteractionModelRevision | uint8 |
public struct TimedRequestMessage: InteractionMessage, Hashable {
    public static let opcode = InteractionOpcode.timedRequest
    /// Milliseconds the server keeps the window open.
    public var timeout: UInt16

    public init(timeout: UInt16) { self.timeout = timeout }

    public func encode() -> [UInt8] {
        encodeMessage { w in w.put(timeout, tag: .context(0)) }
    }

    public init(decoding bytes: [UInt8]) throws(InteractionError) {
        timeout = try decodeMessage(bytes, "TimedRequest") { root throws(TLVError) in try root.required(0) }
    }
}
