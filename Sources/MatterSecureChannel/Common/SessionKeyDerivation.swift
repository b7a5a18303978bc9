import MatterCrypto
import MatterTransport

/// The HKDF step that turns a handshake's shared secret into session keys (spec 4.14.2.6, 4.14.4.2):
/// `I2R ‖ R2I ‖ AttestationChallenge = HKDF-SHA256(secret, salt, info, 48)`.
enum SessionKeyDerivation {
    static let sessionKeysInfo = Array("SessionKeys".utf8)
    static let resumptionKeysInfo = Array("SessionResumptionKeys".utf8)

    static func keys(secret: [UInt8], salt: [UInt8], info: [UInt8], isInitiator: Bool) throws(CryptoError)
        -> SessionKeys
    {
        var okm = try HKDFSHA256.deriveKey(inputKeyMaterial: secret, salt: salt, info: info, outputByteCount: 48)
        defer { SecureMemory.zeroize(&okm) }
        return SessionKeys(
            i2r: Array(okm[0..<16]), r2i: Array(okm[16..<32]), attestationChallenge: Array(okm[32..<48]),
            isInitiator: isInitiator)
    }
}
