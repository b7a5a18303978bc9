import MatterCore

/// The Secure Channel StatusReport (opcode 0x40). Binary, not TLV:
///
/// ```
/// general code u16 | protocol ID u32 (vendor << 16 | protocol) | protocol code u16 | protocol data...
/// ```
package struct StatusReport: Equatable, Sendable, CustomStringConvertible {
    package var generalCode: GeneralCode
    package var protocolID: ProtocolID
    package var protocolCode: UInt16
    package var protocolData: [UInt8]

    package init(
        generalCode: GeneralCode, protocolID: ProtocolID = .secureChannel, protocolCode: UInt16,
        protocolData: [UInt8] = []
    ) {
        self.generalCode = generalCode
        self.protocolID = protocolID
        self.protocolCode = protocolCode
        self.protocolData = protocolData
    }

    /// General status codes (spec Appendix D).
    package struct GeneralCode: RawRepresentable, Hashable, Sendable {
        package let rawValue: UInt16
        package init(rawValue: UInt16) { self.rawValue = rawValue }
        package static let success = GeneralCode(rawValue: 0)
        package static let failure = GeneralCode(rawValue: 1)
        package static let badPrecondition = GeneralCode(rawValue: 2)
        package static let outOfRange = GeneralCode(rawValue: 3)
        package static let badRequest = GeneralCode(rawValue: 4)
        package static let unsupported = GeneralCode(rawValue: 5)
        package static let unexpected = GeneralCode(rawValue: 6)
        package static let resourceExhausted = GeneralCode(rawValue: 7)
        package static let busy = GeneralCode(rawValue: 8)
        package static let timeout = GeneralCode(rawValue: 9)
        package static let `continue` = GeneralCode(rawValue: 10)
        package static let aborted = GeneralCode(rawValue: 11)
        package static let invalidArgument = GeneralCode(rawValue: 12)
        package static let notFound = GeneralCode(rawValue: 13)
        package static let alreadyExists = GeneralCode(rawValue: 14)
        package static let permissionDenied = GeneralCode(rawValue: 15)
        package static let dataLoss = GeneralCode(rawValue: 16)

        /// The spec's name (Appendix D), or the number.
        package var name: String {
            let names = [
                "SUCCESS", "FAILURE", "BAD_PRECONDITION", "OUT_OF_RANGE", "BAD_REQUEST", "UNSUPPORTED", "UNEXPECTED",
                "RESOURCE_EXHAUSTED", "BUSY", "TIMEOUT", "CONTINUE", "ABORTED", "INVALID_ARGUMENT", "NOT_FOUND",
                "ALREADY_EXISTS", "PERMISSION_DENIED", "DATA_LOSS",
            ]
            return Int(rawValue) < names.count ? names[Int(rawValue)] : "general code \(rawValue)"
        }
    }

    /// Secure Channel protocol codes.
    package enum SecureChannelCode {
        package static let sessionEstablishmentSuccess: UInt16 = 0x0000
        package static let noSharedTrustRoots: UInt16 = 0x0001
        package static let invalidParameter: UInt16 = 0x0002
        package static let closeSession: UInt16 = 0x0003
        package static let busy: UInt16 = 0x0004
        package static let sessionNotFound: UInt16 = 0x0005
    }

    /// `SESSION_ESTABLISHMENT_SUCCESS`, what PASE and CASE end with.
    package static let sessionEstablished = StatusReport(
        generalCode: .success,
        protocolCode: SecureChannelCode.sessionEstablishmentSuccess)

    /// BUSY with the minimum time in milliseconds the peer should wait before trying again.
    package static func busy(minimumWaitMilliseconds: UInt16) -> StatusReport {
        var data = ByteWriter(capacity: 2)
        data.writeLE(minimumWaitMilliseconds)
        return StatusReport(generalCode: .busy, protocolCode: SecureChannelCode.busy, protocolData: data.bytes)
    }

    package var encoded: [UInt8] {
        var writer = ByteWriter(capacity: 8 + protocolData.count)
        writer.writeLE(generalCode.rawValue)
        writer.writeLE(protocolID.combined)
        writer.writeLE(protocolCode)
        writer.writeBytes(protocolData)
        return writer.bytes
    }

    package init(decoding bytes: [UInt8]) throws(MessageCodecError) {
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

    package var isSuccess: Bool { generalCode == .success }

    /// In words, then the codes: `FAILURE, INVALID_PARAMETER: the peer refused the handshake's
    /// parameters (general 1, protocol 0x0000, code 0x0002)`.
    package var description: String {
        let codes =
            "general \(generalCode.rawValue), protocol \(protocolID), code 0x\(hexDigits(protocolCode, width: 4))"
            + (protocolData.isEmpty ? "" : ", data \(Hex.encode(protocolData))")
        return "\(generalCode.name), \(protocolCodeName)\(meaning.map { ": \($0)" } ?? "") (\(codes))"
    }

    /// The protocol code's name (the Secure Channel's, spec 4.11.1.3), or its number.
    package var protocolCodeName: String {
        guard protocolID == .secureChannel else { return "code 0x\(hexDigits(protocolCode, width: 4))" }
        switch protocolCode {
        case SecureChannelCode.sessionEstablishmentSuccess: return "SESSION_ESTABLISHMENT_SUCCESS"
        case SecureChannelCode.noSharedTrustRoots: return "NO_SHARED_TRUST_ROOTS"
        case SecureChannelCode.invalidParameter: return "INVALID_PARAMETER"
        case SecureChannelCode.closeSession: return "CLOSE_SESSION"
        case SecureChannelCode.busy: return "BUSY"
        case SecureChannelCode.sessionNotFound: return "SESSION_NOT_FOUND"
        case 0xFFFF: return "GENERAL_FAILURE"
        default: return "code 0x\(hexDigits(protocolCode, width: 4))"
        }
    }

    /// What a Secure Channel protocol code means for whoever asked, nil for other protocols.
    package var meaning: String? {
        guard protocolID == .secureChannel else { return nil }
        switch protocolCode {
        case SecureChannelCode.sessionEstablishmentSuccess: return "the session is established"
        case SecureChannelCode.noSharedTrustRoots:
            return "no shared trust roots: the device is not commissioned on this fabric"
        case SecureChannelCode.invalidParameter:
            return "the peer refused the handshake's parameters (for PASE: its commissioning window is closed, "
                + "another commissioner took it, or a message did not verify)"
        case SecureChannelCode.closeSession: return "the peer closed the session"
        case SecureChannelCode.busy: return "the peer is busy with another session establishment; try again later"
        case SecureChannelCode.sessionNotFound: return "the peer has no such session (resumption refused)"
        default: return nil
        }
    }
}
