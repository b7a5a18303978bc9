package import MatterCore
package import MatterCrypto

/// CASE's fabric-level derivations and constants (spec 4.14.2, case.md §1-§2).
package enum CASEKeySchedule {
    static let sigma2Info = Array("Sigma2".utf8)
    static let sigma3Info = Array("Sigma3".utf8)
    static let sigma1ResumeInfo = Array("Sigma1_Resume".utf8)
    static let sigma2ResumeInfo = Array("Sigma2_Resume".utf8)
    static let sigma2Nonce = Array("NCASE_Sigma2N".utf8)
    static let sigma3Nonce = Array("NCASE_Sigma3N".utf8)
    static let resume1Nonce = Array("NCASE_SigmaS1".utf8)
    static let resume2Nonce = Array("NCASE_SigmaS2".utf8)
    static let compressedFabricInfo = Array("CompressedFabric".utf8)
    static let groupKeyInfo = Array("GroupKey v1.0".utf8)

    /// The 8-byte compressed fabric ID: HKDF(root public key without its 0x04 prefix, salt = fabric ID
    /// big-endian, "CompressedFabric", 8). It names the fabric in `_matter._tcp` records.
    package static func compressedFabricID(rootPublicKey: [UInt8], fabricID: FabricID) throws(CryptoError) -> [UInt8] {
        guard rootPublicKey.count == 65 else {
            throw .invalidLength(what: "root public key", expected: 65, actual: rootPublicKey.count)
        }
        var salt = [UInt8](repeating: 0, count: 8)
        for i in 0..<8 { salt[i] = UInt8(truncatingIfNeeded: fabricID.rawValue >> (56 - 8 * i)) }
        return try HKDFSHA256.deriveKey(
            inputKeyMaterial: Array(rootPublicKey.dropFirst()), salt: salt,
            info: compressedFabricInfo, outputByteCount: 8)
    }

    /// The operational IPK CASE uses: HKDF(epoch key, salt = compressed fabric ID, "GroupKey v1.0", 16).
    package static func operationalIPK(epochKey: [UInt8], compressedFabricID: [UInt8]) throws(CryptoError) -> [UInt8] {
        try HKDFSHA256.deriveKey(
            inputKeyMaterial: epochKey, salt: compressedFabricID, info: groupKeyInfo,
            outputByteCount: 16)
    }

    /// Sigma1's destination identifier: HMAC(operational IPK, initiatorRandom ‖ root public key ‖
    /// fabric ID (LE) ‖ node ID (LE)).
    package static func destinationID(
        operationalIPK: [UInt8], initiatorRandom: [UInt8], rootPublicKey: [UInt8], fabricID: FabricID, nodeID: NodeID
    ) throws(CryptoError) -> [UInt8] {
        var message = ByteWriter(capacity: 113)
        message.writeBytes(initiatorRandom)
        message.writeBytes(rootPublicKey)
        message.writeLE(fabricID.rawValue)
        message.writeLE(nodeID.rawValue)
        return try HMACSHA256.authenticationCode(for: message.bytes, key: operationalIPK)
    }
}
