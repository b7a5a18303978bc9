package import MatterCore

/// The plaintext message header that starts every Matter datagram (spec 4.4.1).
///
/// ```
/// offset size field
/// 0      1    message flags: version (bits 7-4, must be 0), S source present (0x04), DSIZ (bits 1-0)
/// 1      2    session ID (LE)
/// 3      1    security flags: P privacy (0x80), C control (0x40), MX extensions (0x20), session type (bits 1-0)
/// 4      4    message counter (LE)
/// 8      0/8  source node ID, if S
/// ...    0/8/2 destination node ID (DSIZ=1) or group ID (DSIZ=2)
/// ...    0/2+n message extensions (u16 length + bytes), if MX; skipped on receive, never sent
/// ```
package struct MessageHeader: Equatable, Sendable {
    /// Where the message goes: nobody in particular (unicast by session), a node, or a group.
    package enum Destination: Equatable, Sendable {
        case none
        case node(NodeID)
        case group(GroupID)
    }

    /// Session type carried in the low bits of the security flags.
    package enum SessionType: UInt8, Sendable {
        case unicast = 0
        case group = 1
    }

    package var sessionID: UInt16
    package var sessionType: SessionType
    /// Privacy flag (P); privacy obfuscation is not implemented, so such messages are dropped.
    package var privacy: Bool
    /// Control message flag (C), for message-counter synchronisation.
    package var control: Bool
    package var messageCounter: UInt32
    package var source: NodeID?
    package var destination: Destination

    package init(
        sessionID: UInt16, sessionType: SessionType = .unicast, messageCounter: UInt32,
        source: NodeID? = nil, destination: Destination = .none, privacy: Bool = false, control: Bool = false
    ) {
        self.sessionID = sessionID
        self.sessionType = sessionType
        self.messageCounter = messageCounter
        self.source = source
        self.destination = destination
        self.privacy = privacy
        self.control = control
    }

    /// True for the unsecured session (unicast, session ID 0): PASE/CASE handshakes travel in clear.
    package var isUnsecured: Bool { sessionType == .unicast && sessionID == 0 }

    enum Flag {
        static let sourcePresent: UInt8 = 0x04
        static let destinationNode: UInt8 = 0x01
        static let destinationGroup: UInt8 = 0x02
        static let privacy: UInt8 = 0x80
        static let control: UInt8 = 0x40
        static let extensions: UInt8 = 0x20
    }

    /// The security-flags byte as sent (also the first byte of the AES-CCM nonce).
    package var securityFlags: UInt8 {
        sessionType.rawValue | (privacy ? Flag.privacy : 0) | (control ? Flag.control : 0)
    }

    /// Appends the encoded header.
    package func encode(into writer: inout ByteWriter) {
        var flags: UInt8 = 0
        if source != nil { flags |= Flag.sourcePresent }
        switch destination {
        case .none: break
        case .node: flags |= Flag.destinationNode
        case .group: flags |= Flag.destinationGroup
        }
        writer.writeUInt8(flags)
        writer.writeLE(sessionID)
        writer.writeUInt8(securityFlags)
        writer.writeLE(messageCounter)
        if let source { writer.writeLE(source.rawValue) }
        switch destination {
        case .none: break
        case .node(let node): writer.writeLE(node.rawValue)
        case .group(let group): writer.writeLE(group.rawValue)
        }
    }

    /// The encoded header on its own.
    package var encoded: [UInt8] {
        var writer = ByteWriter(capacity: 26)
        encode(into: &writer)
        return writer.bytes
    }

    /// Decodes a header from the start of `reader`, leaving it at the first payload byte.
    /// Rejects what the SDK drops: a non-zero version, reserved DSIZ or session type, a group
    /// message without source and group destination, a unicast message with a group destination.
    package init(from reader: inout ByteReader) throws(MessageCodecError) {
        let decoded = try MessageCodecError.decoding { () throws -> MessageHeader in
            let flags = try reader.readUInt8()
            guard flags >> 4 == 0 else { throw MessageCodecError.unsupportedVersion(flags >> 4) }
            let sessionID: UInt16 = try reader.readLE()
            let security = try reader.readUInt8()
            guard let type = SessionType(rawValue: security & 0x03) else {
                throw MessageCodecError.reservedSessionType(security & 0x03)
            }
            let counter: UInt32 = try reader.readLE()
            let source = flags & Flag.sourcePresent != 0 ? NodeID(try reader.readLE(UInt64.self)) : nil
            let destination: Destination
            switch flags & 0x03 {
            case 0: destination = .none
            case 1: destination = .node(NodeID(try reader.readLE(UInt64.self)))
            case 2: destination = .group(GroupID(try reader.readLE(UInt16.self)))
            default: throw MessageCodecError.reservedDestinationSize
            }
            if security & Flag.extensions != 0 {
                let length: UInt16 = try reader.readLE()
                try reader.skip(Int(length))
            }
            return MessageHeader(
                sessionID: sessionID, sessionType: type, messageCounter: counter, source: source,
                destination: destination, privacy: security & Flag.privacy != 0,
                control: security & Flag.control != 0)
        }
        self = decoded
        switch (sessionType, destination) {
        case (.group, .group) where source != nil: break
        case (.group, .node) where control && source != nil: break
        case (.group, _): throw MessageCodecError.invalidGroupAddressing
        case (.unicast, .group): throw MessageCodecError.invalidGroupAddressing
        case (.unicast, _): break
        }
    }
}
