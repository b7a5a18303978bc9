import MatterTLV

/// StatusResponse (0x01).
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | Status | uint8 |
/// | 0xFF | InteractionModelRevision | uint8 |
public struct StatusResponseMessage: InteractionMessage, Hashable {
    public static let opcode = InteractionOpcode.statusResponse
    public var status: IMStatus

    public init(status: IMStatus) { self.status = status }

    public func encode() -> [UInt8] {
        encodeMessage { w in w.put(status.rawValue, tag: .context(0)) }
    }

    public init(decoding bytes: [UInt8]) throws(InteractionError) {
        status = try decodeMessage(bytes, "StatusResponse") { root throws(TLVError) in
            IMStatus(rawValue: try root.required(0, UInt8.self))
        }
    }
}
