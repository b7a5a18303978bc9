package import MatterCrypto

/// The signature a device puts on its AttestationResponse and CSRResponse: ECDSA-P256-SHA256 with the DAC key
/// over `elements ‖ attestationChallenge` (the challenge comes from the PASE session keys), raw r‖s.
package enum AttestationSignature {
    /// Signs `elements ‖ attestationChallenge` with the DAC private key.
    package static func sign(
        elements: [UInt8], attestationChallenge: [UInt8], dacKey: P256PrivateKey
    ) throws(CredentialsError) -> P256Signature {
        try withCrypto { () throws(CryptoError) in try dacKey.signature(for: elements + attestationChallenge) }
    }

    /// Whether `signature` is a valid signature of `elements ‖ attestationChallenge` by the DAC public key.
    package static func isValid(
        _ signature: P256Signature, elements: [UInt8], attestationChallenge: [UInt8], dacPublicKey: P256PublicKey
    ) -> Bool {
        dacPublicKey.isValidSignature(signature, for: elements + attestationChallenge)
    }
}
