public import MatterCore

/// One application message delivered to an exchange: authenticated, de-duplicated, acknowledged.
public struct ReceivedMessage: Sendable {
    public let session: SessionID
    public let protocolID: ProtocolID
    public let opcode: UInt8
    public let exchangeID: UInt16
    /// The application payload (after the protocol header), decrypted.
    public let payload: [UInt8]
    public let peerAddress: UDPAddress
    public let messageCounter: UInt32
    /// The sender's node ID from the header, if present (unsecured handshakes).
    public let sourceNodeID: NodeID?

    /// True when this is `protocolID`/`opcode`.
    public func isMessage(_ protocolID: ProtocolID, _ opcode: UInt8) -> Bool {
        self.protocolID == protocolID && self.opcode == opcode
    }
}
