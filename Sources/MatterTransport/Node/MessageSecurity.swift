import MatterCore
import MatterCrypto

/// AES-128-CCM message protection (spec 4.7): 13-byte nonce, 16-byte MIC, the header as AAD.
enum MessageSecurity {
    static let micLength = 16

    /// `security flags (1) ‖ message counter (4, LE) ‖ sender node ID (8, LE)`.
    static func nonce(securityFlags: UInt8, counter: UInt32, nodeID: UInt64) -> [UInt8] {
        var writer = ByteWriter(capacity: 13)
        writer.writeUInt8(securityFlags)
        writer.writeLE(counter)
        writer.writeLE(nodeID)
        return writer.bytes
    }

    static func seal(key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: [UInt8]) throws -> [UInt8] {
        try AESCCM128.seal(plaintext, key: key, nonce: nonce, authenticating: aad)
    }

    /// Nil when the MIC does not verify.
    static func open(key: [UInt8], nonce: [UInt8], aad: [UInt8], sealed: [UInt8]) -> [UInt8]? {
        try? AESCCM128.open(sealed, key: key, nonce: nonce, authenticating: aad)
    }
}
