import MatterCrypto
import MatterTestSupport
import Testing

/// OpenSSL's per-thread error queue must be empty after every call, including expected failures, so that a later
/// failure reports only its own reasons. Each check runs synchronously on one thread (no `await` in between).
@Suite("OpenSSL error queue hygiene")
struct ErrorQueueTests {
    @Test("Expected failures and successes leave the error queue empty")
    func queueStaysEmpty() throws {
        let key = try P256PrivateKey()
        let message: [UInt8] = [1, 2, 3]
        let signature = try key.signature(for: message)
        #expect(!OpenSSLDiagnostics.hasPendingErrors, "after signing")

        var bad = signature.rawRepresentation
        bad[5] ^= 1
        #expect(!key.publicKey.isValidSignature(try P256Signature(rawRepresentation: bad), for: message))
        #expect(!OpenSSLDiagnostics.hasPendingErrors, "after a failed verification")

        let sealed = try AESCCM128.seal(
            [9, 9, 9], key: [UInt8](repeating: 1, count: 16),
            nonce: [UInt8](repeating: 2, count: 13))
        var tampered = sealed
        tampered[0] ^= 1
        _ = try? AESCCM128.open(
            tampered, key: [UInt8](repeating: 1, count: 16), nonce: [UInt8](repeating: 2, count: 13))
        #expect(!OpenSSLDiagnostics.hasPendingErrors, "after a bad AES-CCM tag")

        _ = try? P256Signature(derRepresentation: [0x30, 0x01, 0x00])
        #expect(!OpenSSLDiagnostics.hasPendingErrors, "after malformed DER signature")

        _ = try? P256PrivateKey(sec1DERRepresentation: try key.pkcs8DERRepresentation())
        _ = try? P256PrivateKey(pkcs8DERRepresentation: Array(try key.pkcs8DERRepresentation().dropLast()))
        _ = try? P256PublicKey(subjectPublicKeyInfoDERRepresentation: [0x30, 0x00])
        #expect(!OpenSSLDiagnostics.hasPendingErrors, "after malformed DER keys")

        var offCurve = key.publicKey.x963Representation
        offCurve[64] ^= 1
        _ = try? P256PublicKey(x963Representation: offCurve)
        #expect(!OpenSSLDiagnostics.hasPendingErrors, "after an off-curve point")

        let verifier = try Spake2PlusVerifier(
            context: [],
            passcodeVerifier: try Spake2PlusPasscodeVerifier(
                passcode: 20_202_021, salt: Array("SPAKE2P Key Salt".utf8), iterations: 1000))
        _ = try? verifier.respond(toProverShare: offCurve)
        #expect(!OpenSSLDiagnostics.hasPendingErrors, "after an invalid SPAKE2+ share")

        _ = try key.sec1DERRepresentation()
        _ = try P256PrivateKey(sec1DERRepresentation: try key.sec1DERRepresentation())
        _ = try P256PublicKey(
            subjectPublicKeyInfoDERRepresentation: try key.publicKey.subjectPublicKeyInfoDERRepresentation())
        _ = try key.sharedSecret(with: try P256PrivateKey().publicKey)
        #expect(!OpenSSLDiagnostics.hasPendingErrors, "after successful DER round trips and ECDH")
    }
}
