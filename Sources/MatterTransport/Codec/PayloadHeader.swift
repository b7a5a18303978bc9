package import MatterCore

/// The protocol (exchange) header at the start of a message's payload, encrypted on secure sessions
/// (spec 4.4.3).
///
/// ```
/// offset size field
/// 0      1    exchange flags: I initiator 0x01, A ack 0x02, R reliable 0x04, SX 0x08, V vendor 0x10
/// 1      1    protocol opcode
/// 2      2    exchange ID (LE)
/// 4      0/2  protocol vendor ID, if V (before the protocol ID, as the SDK writes it)
/// ...    2    protocol ID (LE)
/// ...    0/4  acknowledged message counter, if A
/// ...    0/2+n secured extensions (u16 length + bytes), if SX; skipped on receive, never sent
/// ```
package struct PayloadHeader: Equatable, Sendable {
    /// True when the sender initiated the exchange.
    package var isInitiator: Bool
    /// True when the sender asks for an MRP acknowledgement.
    package var needsAck: Bool
    /// The counter of the message this one acknowledges, if any.
    package var acknowledgedCounter: UInt32?
    package var opcode: UInt8
    package var exchangeID: UInt16
    package var protocolID: ProtocolID

    package init(
        isInitiator: Bool, needsAck: Bool, acknowledgedCounter: UInt32? = nil, opcode: UInt8,
        exchangeID: UInt16, protocolID: ProtocolID
    ) {
        self.isInitiator = isInitiator
        self.needsAck = needsAck
        self.acknowledgedCounter = acknowledgedCounter
        self.opcode = opcode
        self.exchangeID = exchangeID
        self.protocolID = protocolID
    }

    enum Flag {
        static let initiator: UInt8 = 0x01
        static let ack: UInt8 = 0x02
        static let reliable: UInt8 = 0x04
        static let securedExtensions: UInt8 = 0x08
        static let vendor: UInt8 = 0x10
    }

    package func encode(into writer: inout ByteWriter) {
        var flags: UInt8 = 0
        if isInitiator { flags |= Flag.initiator }
        if acknowledgedCounter != nil { flags |= Flag.ack }
        if needsAck { flags |= Flag.reliable }
        if protocolID.vendorID != 0 { flags |= Flag.vendor }
        writer.writeUInt8(flags)
        writer.writeUInt8(opcode)
        writer.writeLE(exchangeID)
        if protocolID.vendorID != 0 { writer.writeLE(protocolID.vendorID) }
        writer.writeLE(protocolID.protocolNumber)
        if let acknowledgedCounter { writer.writeLE(acknowledgedCounter) }
    }

    /// Decodes from the start of `reader`, leaving it at the first application-payload byte.
    package init(from reader: inout ByteReader) throws(MessageCodecError) {
        self = try MessageCodecError.decoding { () throws -> PayloadHeader in
            let flags = try reader.readUInt8()
            let opcode = try reader.readUInt8()
            let exchangeID: UInt16 = try reader.readLE()
            let vendor: UInt16 = flags & Flag.vendor != 0 ? try reader.readLE() : 0
            let number: UInt16 = try reader.readLE()
            let ack: UInt32? = flags & Flag.ack != 0 ? try reader.readLE(UInt32.self) : nil
            if flags & Flag.securedExtensions != 0 {
                let length: UInt16 = try reader.readLE()
                try reader.skip(Int(length))
            }
            return PayloadHeader(
                isInitiator: flags & Flag.initiator != 0, needsAck: flags & Flag.reliable != 0,
                acknowledgedCounter: ack, opcode: opcode, exchangeID: exchangeID,
                protocolID: ProtocolID(vendorID: vendor, protocolNumber: number))
        }
    }
}

/// A protocol: vendor ID (0 for the standard ones) and protocol number.
package struct ProtocolID: Hashable, Sendable, CustomStringConvertible {
    package let vendorID: UInt16
    package let protocolNumber: UInt16

    package init(vendorID: UInt16 = 0, protocolNumber: UInt16) {
        self.vendorID = vendorID
        self.protocolNumber = protocolNumber
    }

    /// As carried in a StatusReport: `vendor << 16 | protocol`.
    package var combined: UInt32 { UInt32(vendorID) << 16 | UInt32(protocolNumber) }

    package init(combined: UInt32) {
        self.init(vendorID: UInt16(combined >> 16), protocolNumber: UInt16(truncatingIfNeeded: combined))
    }

    package static let secureChannel = ProtocolID(protocolNumber: 0x0000)
    package static let interactionModel = ProtocolID(protocolNumber: 0x0001)
    package static let bdx = ProtocolID(protocolNumber: 0x0002)
    package static let userDirectedCommissioning = ProtocolID(protocolNumber: 0x0003)
    package static let echo = ProtocolID(protocolNumber: 0x0004)

    package var description: String {
        vendorID == 0
            ? "0x" + hexDigits(protocolNumber, width: 4)
            : "0x" + hexDigits(vendorID, width: 4) + ":0x" + hexDigits(protocolNumber, width: 4)
    }
}
