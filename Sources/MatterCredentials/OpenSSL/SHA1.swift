internal import COpenSSL
import MatterCrypto

/// SHA-1, used only for RFC 5280 key identifiers (method 1: SHA-1 of the public key bit string), which the SDK
/// and every Matter certificate use. `MatterCrypto` has no SHA-1 (nothing else in Matter needs it).
enum SHA1 {
    static func hash(_ data: [UInt8]) throws(CredentialsError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 20)
        var length: UInt32 = 0
        let rc = data.withUnsafeBytes { input in
            out.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha1(), nil)
            }
        }
        guard rc == 1, length == 20 else {
            ERR_clear_error()
            throw .crypto(.openSSLFailure(function: "EVP_Digest(SHA1)", reasons: []))
        }
        return out
    }
}

/// Key identifiers and serial numbers for certificates this module issues.
enum CertificateIdentifiers {
    /// The 20-byte key identifier of a 65-byte uncompressed public key: SHA-1 of the point.
    static func keyIdentifier(_ publicKey: [UInt8]) throws(CredentialsError) -> [UInt8] { try SHA1.hash(publicKey) }

    /// A random positive 8-byte serial number whose DER INTEGER contents are exactly these bytes.
    static func randomSerialNumber() throws(CredentialsError) -> [UInt8] {
        var bytes = try withCrypto { () throws(CryptoError) in try SecureRandom.bytes(count: 8) }
        bytes[0] = (bytes[0] & 0x3F) | 0x40
        return bytes
    }
}
