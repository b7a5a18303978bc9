import MatterCrypto

/// The per-handshake derivations of CASE (case.md §4-§7): sigma keys, session keys and the
/// resumption MICs. All throw `CryptoError`, which callers map to INVALID_PARAMETER.
enum CASECrypto {
    /// S2K = HKDF(shared, IPK ‖ responderRandom ‖ responderEphPubKey ‖ SHA256(Sigma1), "Sigma2", 16).
    static func sigma2Key(
        shared: [UInt8], ipk: [UInt8], responderRandom: [UInt8], responderEphemeralKey: [UInt8],
        sigma1: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        try HKDFSHA256.deriveKey(
            inputKeyMaterial: shared,
            salt: ipk + responderRandom + responderEphemeralKey + (try SHA256.hash(sigma1)),
            info: CASEKeySchedule.sigma2Info, outputByteCount: 16)
    }

    /// S3K = HKDF(shared, IPK ‖ SHA256(Sigma1 ‖ Sigma2), "Sigma3", 16).
    static func sigma3Key(shared: [UInt8], ipk: [UInt8], transcript: [UInt8]) throws(CryptoError) -> [UInt8] {
        try HKDFSHA256.deriveKey(
            inputKeyMaterial: shared, salt: ipk + (try SHA256.hash(transcript)),
            info: CASEKeySchedule.sigma3Info, outputByteCount: 16)
    }

    /// Session keys salt for a full handshake: IPK ‖ SHA256(Sigma1 ‖ Sigma2 ‖ Sigma3).
    static func sessionSalt(ipk: [UInt8], transcript: [UInt8]) throws(CryptoError) -> [UInt8] {
        ipk + (try SHA256.hash(transcript))
    }

    /// The 16-byte MIC of a resumption message: AES-CCM tag over nothing, with a key from
    /// HKDF(shared, initiatorRandom ‖ resumptionID, info, 16).
    static func resumeMIC(
        shared: [UInt8], initiatorRandom: [UInt8], resumptionID: [UInt8], info: [UInt8],
        nonce: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        let key = try HKDFSHA256.deriveKey(
            inputKeyMaterial: shared, salt: initiatorRandom + resumptionID, info: info,
            outputByteCount: 16)
        return try AESCCM128.seal([], key: key, nonce: nonce)
    }

    static func encrypt(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) throws(CryptoError) -> [UInt8] {
        try AESCCM128.seal(plaintext, key: key, nonce: nonce)
    }

    static func decrypt(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8]) throws(CryptoError) -> [UInt8] {
        try AESCCM128.open(sealed, key: key, nonce: nonce)
    }
}
