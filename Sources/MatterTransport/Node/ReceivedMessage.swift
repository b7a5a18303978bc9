package import MatterCore

/// One application message delivered to an exchange: authenticated, de-duplicated, acknowledged.
package struct ReceivedMessage: Sendable {
    package let session: SessionID
    package let protocolID: ProtocolID
    package let opcode: UInt8
    package let exchangeID: UInt16
    /// The application payload (after the protocol header), decrypted.
    package let payload: [UInt8]
    package let peerAddress: UDPAddress
    package let messageCounter: UInt32
    /// The sender's node ID from the header, if present (unsecured handshakes).
    package let sourceNodeID: NodeID?

    /// True when this is `protocolID`/`opcode`.
    package func isMessage(_ protocolID: ProtocolID, _ opcode: UInt8) -> Bool {
        self.protocolID == protocolID && self.opcode == opcode
    }
}
