import MatterCrypto
import MatterTestSupport
import Testing

@Suite("P-256 keys, ECDSA and ECDH")
struct P256Tests {
    struct File: Decodable {
        let ecdsa: ECDSA
        let ecdh: ECDH
        struct ECDSA: Decodable {
            let privateKey, publicKey, sec1DER, pkcs8DER, spkiDER: String
            let signatures: [Signature]
            struct Signature: Decodable { let message, signatureRaw, signatureDER: String }
        }
        struct ECDH: Decodable { let peerPublicKey, privateKey, publicKey, sharedSecret: String }
    }

    static let groupOrder = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"

    let vectors: File

    init() throws { vectors = try VectorFile.load("p256", as: File.self, in: .module) }

    @Test("RFC 6979 key: raw import derives the published public key; exports match the reference DER")
    func keyImportExport() throws {
        let key = try P256PrivateKey(rawRepresentation: hex(vectors.ecdsa.privateKey))
        #expect(hexString(key.publicKey.x963Representation) == vectors.ecdsa.publicKey)
        #expect(hexString(try key.rawRepresentation()) == vectors.ecdsa.privateKey)
        #expect(hexString(try key.sec1DERRepresentation()) == vectors.ecdsa.sec1DER)
        #expect(hexString(try key.pkcs8DERRepresentation()) == vectors.ecdsa.pkcs8DER)
        #expect(hexString(try key.publicKey.subjectPublicKeyInfoDERRepresentation()) == vectors.ecdsa.spkiDER)

        let fromSEC1 = try P256PrivateKey(sec1DERRepresentation: hex(vectors.ecdsa.sec1DER))
        #expect(hexString(try fromSEC1.rawRepresentation()) == vectors.ecdsa.privateKey)
        let fromPKCS8 = try P256PrivateKey(pkcs8DERRepresentation: hex(vectors.ecdsa.pkcs8DER))
        #expect(hexString(try fromPKCS8.rawRepresentation()) == vectors.ecdsa.privateKey)
        #expect(fromPKCS8.publicKey == key.publicKey)
        let fromSPKI = try P256PublicKey(subjectPublicKeyInfoDERRepresentation: hex(vectors.ecdsa.spkiDER))
        #expect(hexString(fromSPKI.x963Representation) == vectors.ecdsa.publicKey)
    }

    @Test("Generated keys round-trip through every import/export form")
    func generatedRoundTrips() throws {
        let key = try P256PrivateKey()
        let raw = try key.rawRepresentation()
        #expect(raw.count == 32)
        #expect(key.publicKey.x963Representation.count == 65)
        #expect(key.publicKey.x963Representation.first == 0x04)
        #expect(try P256PrivateKey(rawRepresentation: raw).publicKey == key.publicKey)
        #expect(try P256PrivateKey(sec1DERRepresentation: key.sec1DERRepresentation()).rawRepresentation() == raw)
        #expect(try P256PrivateKey(pkcs8DERRepresentation: key.pkcs8DERRepresentation()).rawRepresentation() == raw)
        let spki = try key.publicKey.subjectPublicKeyInfoDERRepresentation()
        #expect(try P256PublicKey(subjectPublicKeyInfoDERRepresentation: spki) == key.publicKey)
        #expect(try P256PublicKey(x963Representation: key.publicKey.x963Representation) == key.publicKey)
        #expect(try P256PrivateKey().publicKey != key.publicKey)
    }

    @Test("RFC 6979 signatures verify; raw and DER forms convert both ways")
    func publishedSignatures() throws {
        let publicKey = try P256PublicKey(x963Representation: hex(vectors.ecdsa.publicKey))
        for vector in vectors.ecdsa.signatures {
            let message = hex(vector.message)
            let raw = try P256Signature(rawRepresentation: hex(vector.signatureRaw))
            #expect(hexString(try raw.derRepresentation()) == vector.signatureDER)
            let parsed = try P256Signature(derRepresentation: hex(vector.signatureDER))
            #expect(parsed == raw)
            #expect(publicKey.isValidSignature(raw, for: message))
            #expect(!publicKey.isValidSignature(raw, for: message + [0]))
        }
    }

    @Test("Sign and verify; a tampered signature or message does not verify")
    func signVerify() throws {
        let key = try P256PrivateKey()
        let message = Array("TBSData2 stand-in".utf8)
        let signature = try key.signature(for: message)
        #expect(signature.rawRepresentation.count == 64)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        #expect(!key.publicKey.isValidSignature(signature, for: Array("other".utf8)))
        #expect(!(try P256PrivateKey()).publicKey.isValidSignature(signature, for: message))
        for index in [0, 31, 32, 63] {
            var raw = signature.rawRepresentation
            raw[index] ^= 0x01
            #expect(!key.publicKey.isValidSignature(try P256Signature(rawRepresentation: raw), for: message))
        }
        // r = 0 or s = 0 is never valid (and must not throw).
        let zeros = try P256Signature(rawRepresentation: [UInt8](repeating: 0, count: 64))
        #expect(!key.publicKey.isValidSignature(zeros, for: message))
        // The same key still verifies afterwards (no stale OpenSSL error state).
        #expect(key.publicKey.isValidSignature(signature, for: message))
    }

    @Test("Raw ↔ DER round trip, including short r and s")
    func derRoundTrip() throws {
        for _ in 0..<16 {
            let signature = try (try P256PrivateKey()).signature(for: [1, 2, 3])
            let der = try signature.derRepresentation()
            #expect(try P256Signature(derRepresentation: der) == signature)
        }
        // r = 1, s = 0x80 (needs a leading zero byte in DER).
        var raw = [UInt8](repeating: 0, count: 64)
        raw[31] = 1
        raw[63] = 0x80
        let small = try P256Signature(rawRepresentation: raw)
        #expect(try small.derRepresentation() == [0x30, 0x07, 0x02, 0x01, 0x01, 0x02, 0x02, 0x00, 0x80])
        #expect(try P256Signature(derRepresentation: small.derRepresentation()) == small)
    }

    @Test("ECDH: NIST CAVS P-256 vector")
    func ecdhVector() throws {
        let key = try P256PrivateKey(rawRepresentation: hex(vectors.ecdh.privateKey))
        #expect(hexString(key.publicKey.x963Representation) == vectors.ecdh.publicKey)
        let peer = try P256PublicKey(x963Representation: hex(vectors.ecdh.peerPublicKey))
        #expect(hexString(try key.sharedSecret(with: peer)) == vectors.ecdh.sharedSecret)
    }

    @Test("ECDH agrees both ways")
    func ecdhAgreement() throws {
        let alice = try P256PrivateKey()
        let bob = try P256PrivateKey()
        let ab = try alice.sharedSecret(with: bob.publicKey)
        let ba = try bob.sharedSecret(with: alice.publicKey)
        #expect(ab.count == 32)
        #expect(ab == ba)
        #expect(try alice.sharedSecret(with: (try P256PrivateKey()).publicKey) != ab)
    }

    @Test("Malformed private keys throw typed errors")
    func malformedPrivateKeys() throws {
        expectCryptoError(.invalidLength) { try P256PrivateKey(rawRepresentation: [UInt8](repeating: 1, count: 31)) }
        expectCryptoError(.invalidLength) { try P256PrivateKey(rawRepresentation: [UInt8](repeating: 1, count: 33)) }
        expectCryptoError(.invalidPrivateKey) {
            try P256PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 32))
        }
        expectCryptoError(.invalidPrivateKey) { try P256PrivateKey(rawRepresentation: hex(Self.groupOrder)) }
        expectCryptoError(.invalidPrivateKey) {
            try P256PrivateKey(rawRepresentation: [UInt8](repeating: 0xFF, count: 32))
        }

        let sec1 = hex(vectors.ecdsa.sec1DER)
        let pkcs8 = hex(vectors.ecdsa.pkcs8DER)
        expectCryptoError(.invalidPrivateKey) { try P256PrivateKey(sec1DERRepresentation: []) }
        expectCryptoError(.invalidPrivateKey) {
            try P256PrivateKey(sec1DERRepresentation: [0x30, 0x03, 0x02, 0x01, 0x01])
        }
        expectCryptoError(.invalidPrivateKey) { try P256PrivateKey(sec1DERRepresentation: Array(sec1.dropLast(10))) }
        expectCryptoError(.invalidPrivateKey) { try P256PrivateKey(sec1DERRepresentation: sec1 + [0x00]) }
        expectCryptoError(.invalidPrivateKey) { try P256PrivateKey(pkcs8DERRepresentation: Array(pkcs8.dropLast(1))) }
        expectCryptoError(.invalidPrivateKey) { try P256PrivateKey(pkcs8DERRepresentation: pkcs8 + [0x00]) }
        // Each structure only in its own initializer.
        expectCryptoError(.invalidPrivateKey) { try P256PrivateKey(pkcs8DERRepresentation: sec1) }
        expectCryptoError(.invalidPrivateKey) { try P256PrivateKey(sec1DERRepresentation: pkcs8) }
        // A SEC1 key whose embedded public key belongs to another scalar.
        let otherPoint = (try P256PrivateKey()).publicKey.x963Representation
        #expect(Array(sec1.suffix(65)) == (hex(vectors.ecdsa.publicKey)))
        expectCryptoError(.invalidPrivateKey) {
            try P256PrivateKey(sec1DERRepresentation: Array(sec1.dropLast(65)) + otherPoint)
        }
    }

    @Test("Malformed public keys throw typed errors")
    func malformedPublicKeys() throws {
        let point = hex(vectors.ecdsa.publicKey)
        expectCryptoError(.invalidLength) { try P256PublicKey(x963Representation: Array(point.prefix(64))) }
        expectCryptoError(.invalidLength) { try P256PublicKey(x963Representation: [0x00]) }
        // Compressed form of the same point.
        expectCryptoError(.invalidLength) {
            try P256PublicKey(x963Representation: [0x02 | (point[64] & 1)] + point[1...32])
        }
        var hybrid = point
        hybrid[0] = 0x06 | (point[64] & 1)
        expectCryptoError(.invalidPublicKey) { try P256PublicKey(x963Representation: hybrid) }
        var offCurve = point
        offCurve[64] ^= 0x01
        expectCryptoError(.invalidPublicKey) { try P256PublicKey(x963Representation: offCurve) }
        expectCryptoError(.invalidPublicKey) {
            try P256PublicKey(x963Representation: [0x04] + [UInt8](repeating: 0, count: 64))
        }
        let spki = hex(vectors.ecdsa.spkiDER)
        expectCryptoError(.invalidPublicKey) { try P256PublicKey(subjectPublicKeyInfoDERRepresentation: []) }
        expectCryptoError(.invalidPublicKey) { try P256PublicKey(subjectPublicKeyInfoDERRepresentation: spki + [0]) }
        expectCryptoError(.invalidPublicKey) {
            try P256PublicKey(
                subjectPublicKeyInfoDERRepresentation: Array(spki.dropLast(1)) + [spki[spki.count - 1] ^ 1])
        }
    }

    @Test("Malformed signatures throw typed errors")
    func malformedSignatures() throws {
        expectCryptoError(.invalidLength) { try P256Signature(rawRepresentation: [UInt8](repeating: 1, count: 63)) }
        expectCryptoError(.invalidLength) { try P256Signature(rawRepresentation: [UInt8](repeating: 1, count: 72)) }
        let der = hex(vectors.ecdsa.signatures[0].signatureDER)
        expectCryptoError(.invalidSignature) { try P256Signature(derRepresentation: []) }
        expectCryptoError(.invalidSignature) { try P256Signature(derRepresentation: Array(der.dropLast(1))) }
        expectCryptoError(.invalidSignature) { try P256Signature(derRepresentation: der + [0x00]) }
        // Non-minimal INTEGER (a redundant leading zero before 0x01).
        expectCryptoError(.invalidSignature) {
            try P256Signature(derRepresentation: [0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x01])
        }
        // r longer than 32 bytes.
        let longR: [UInt8] = [0x30, 0x26, 0x02, 0x21, 0x01] + [UInt8](repeating: 0x11, count: 32) + [0x02, 0x01, 0x01]
        expectCryptoError(.invalidSignature) { try P256Signature(derRepresentation: longR) }
    }
}
