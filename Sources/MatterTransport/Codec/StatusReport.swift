import MatterCore

/// The Secure Channel StatusReport (opcode 0x40). Binary, not TLV:
///
/// ```
/// general code u16 | protocol ID u32 (vendor << 16 | protocol) | protocol code u16 | protocol data...
/// ```
public struct StatusReport: Equatable, Sendable, CustomStringConvertible {
    public var generalCode: GeneralCode
    public var protocolID: ProtocolID
    public var protocolCode: UInt16
    public var protocolData: [UInt8]

    public init(
        generalCode: GeneralCode, protocolID: ProtocolID = .secureChannel, protocolCode: UInt16,
        protocolData: [UInt8] = []
    ) {
        self.generalCode = generalCode
        self.protocolID = protocolID
        self.protocolCode = protocolCode
        self.protocolData = protocolData
    }

    /// General status codes (spec Appendix D).
    public struct GeneralCode: RawRepresentable, Hashable, Sendable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        public static let success = GeneralCode(rawValue: 0)
        public static let failure = GeneralCode(rawValue: 1)
        public static let badPrecondition = GeneralCode(rawValue: 2)
        public static let outOfRange = GeneralCode(rawValue: 3)
        public static let badRequest = GeneralCode(rawValue: 4)
        public static let unsupported = GeneralCode(rawValue: 5)
        public static let unexpected = GeneralCode(rawValue: 6)
        public static let resourceExhausted = GeneralCode(rawValue: 7)
        public static let busy = GeneralCode(rawValue: 8)
        public static let timeout = GeneralCode(rawValue: 9)
        public static let `continue` = GeneralCode(rawValue: 10)
        public static let aborted = GeneralCode(rawValue: 11)
        public static let invalidArgument = GeneralCode(rawValue: 12)
        public static let notFound = GeneralCode(rawValue: 13)
        public static let alreadyExists = GeneralCode(rawValue: 14)
        public static let permissionDenied = GeneralCode(rawValue: 15)
        public static let dataLoss = GeneralCode(rawValue: 16)
    }

    /// Secure Channel protocol codes.
    public enum SecureChannelCode {
        public static let sessionEstablishmentSuccess: UInt16 = 0x0000
        public static let noSharedTrustRoots: UInt16 = 0x0001
        public static let invalidParameter: UInt16 = 0x0002
        public static let closeSession: UInt16 = 0x0003
        public static let busy: UInt16 = 0x0004
        public static let sessionNotFound: UInt16 = 0x0005
    }

    /// `SESSION_ESTABLISHMENT_SUCCESS`, what PASE and CASE end with.
    public static let sessionEstablished = StatusReport(
        generalCode: .success,
        protocolCode: SecureChannelCode.sessionEstablishmentSuccess)

    /// BUSY with the minimum time in milliseconds the peer should wait before trying again.
    public static func busy(minimumWaitMilliseconds: UInt16) -> StatusReport {
        var data = ByteWriter(capacity: 2)
        data.writeLE(minimumWaitMilliseconds)
        return StatusReport(generalCode: .busy, protocolCode: SecureChannelCode.busy, protocolData: data.bytes)
    }

    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: 8 + protocolData.count)
        writer.writeLE(generalCode.rawValue)
        writer.writeLE(protocolID.combined)
        writer.writeLE(protocolCode)
        writer.writeBytes(protocolData)
        return writer.bytes
    }

    public init(decoding bytes: [UInt8]) throws(MessageCodecError) {
        guard bytes.count >= 8 else {
            throw .invalidStatusReport("\(bytes.count) byte(s), at least 8 needed")
        }
        var reader = ByteReader(bytes)
        self = try MessageCodecError.decoding { () throws -> StatusReport in
            let general: UInt16 = try reader.readLE()
            let protocolID: UInt32 = try reader.readLE()
            let code: UInt16 = try reader.readLE()
            return StatusReport(
                generalCode: GeneralCode(rawValue: general), protocolID: ProtocolID(combined: protocolID),
                protocolCode: code, protocolData: reader.readRest())
        }
    }

    public var isSuccess: Bool { generalCode == .success }

    public var description: String {
        "StatusReport(general \(generalCode.rawValue), protocol \(protocolID), code 0x\(hexDigits(protocolCode, width: 4))"
            + (protocolData.isEmpty ? ")" : ", data \(Hex.encode(protocolData)))")
    }
}
