import MatterTLV

/// TimedRequest (0x0A): opens a window for a write or invoke on the same exchange.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | Timeout | uint16 ms |
/// | 0xFF | InteractionModelRevision | uint8 |
package struct TimedRequestMessage: InteractionMessage, Hashable {
    package static let opcode = InteractionOpcode.timedRequest
    /// Milliseconds the server keeps the window open.
    package var timeout: UInt16

    package init(timeout: UInt16) { self.timeout = timeout }

    package func encode() -> [UInt8] {
        encodeMessage { w in w.put(timeout, tag: .context(0)) }
    }

    package init(decoding bytes: [UInt8]) throws(InteractionError) {
        timeout = try decodeMessage(bytes, "TimedRequest") { root throws(TLVError) in try root.required(0) }
    }
}
