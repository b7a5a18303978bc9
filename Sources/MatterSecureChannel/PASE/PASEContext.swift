import MatterCrypto

/// The SPAKE2+ context both PASE sides hash (spec 4.14.1.2):
/// `SHA-256("CHIP PAKE V1 Commissioning" ‖ PBKDFParamRequest ‖ PBKDFParamResponse)`, over the
/// payload bytes exactly as sent and received.
enum PASEContext {
    static let prefix = Array("CHIP PAKE V1 Commissioning".utf8)

    static func hash(request: [UInt8], response: [UInt8]) throws(CryptoError) -> [UInt8] {
        try SHA256.hash(prefix + request + response)
    }
}
