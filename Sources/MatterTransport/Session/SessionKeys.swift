/// The keys PASE or CASE derived for one secure session, from this node's point of view.
package struct SessionKeys: Sendable {
    /// Encrypts what this node sends (I2R for the handshake initiator, R2I for the responder).
    package let encrypt: [UInt8]
    /// Decrypts what the peer sends.
    package let decrypt: [UInt8]
    /// The attestation challenge both sides derived (signed over during commissioning).
    package let attestationChallenge: [UInt8]

    /// Assigns I2R/R2I by role: the handshake initiator encrypts with I2R.
    package init(i2r: [UInt8], r2i: [UInt8], attestationChallenge: [UInt8], isInitiator: Bool) {
        encrypt = isInitiator ? i2r : r2i
        decrypt = isInitiator ? r2i : i2r
        self.attestationChallenge = attestationChallenge
    }
}
