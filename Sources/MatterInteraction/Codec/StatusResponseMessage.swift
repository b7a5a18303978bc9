import MatterTLV

/// StatusResponse (0x01).
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | Status | uint8 |
/// | 0xFF | InteractionModelRevision | uint8 |
package struct StatusResponseMessage: InteractionMessage, Hashable {
    package static let opcode = InteractionOpcode.statusResponse
    package var status: IMStatus

    package init(status: IMStatus) { self.status = status }

    package func encode() -> [UInt8] {
        encodeMessage { w in w.put(status.rawValue, tag: .context(0)) }
    }

    package init(decoding bytes: [UInt8]) throws(InteractionError) {
        status = try decodeMessage(bytes, "StatusResponse") { root throws(TLVError) in
            IMStatus(rawValue: try root.required(0, UInt8.self))
        }
    }
}
