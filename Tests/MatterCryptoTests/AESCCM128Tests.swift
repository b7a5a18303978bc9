import MatterCrypto
import MatterTestSupport
import Testing

@Suite("AES-128-CCM")
struct AESCCM128Tests {
    struct File: Decodable {
        let vectors: [Vector]
        struct Vector: Decodable { let name, key, nonce, aad, plaintext, ciphertext, tag: String }
    }

    @Test("SDK Matter-compliant vectors (13-byte nonce, 16-byte tag): seal and open")
    func sdkVectors() throws {
        let vectors = try VectorFile.load("aes-ccm-128", as: File.self, in: .module).vectors
        #expect(vectors.count >= 5)
        for vector in vectors {
            let key = hex(vector.key)
            let nonce = hex(vector.nonce)
            let aad = hex(vector.aad)
            let plaintext = hex(vector.plaintext)
            let expected = hex(vector.ciphertext) + hex(vector.tag)
            let sealed = try AESCCM128.seal(plaintext, key: key, nonce: nonce, authenticating: aad)
            #expect(hexString(sealed) == hexString(expected), "\(vector.name)")
            #expect(
                try AESCCM128.open(expected, key: key, nonce: nonce, authenticating: aad) == plaintext, "\(vector.name)"
            )
        }
    }

    @Test("Any altered byte of ciphertext, tag, AAD or nonce fails authentication")
    func tampering() throws {
        let vector = try #require(
            try VectorFile.load("aes-ccm-128", as: File.self, in: .module).vectors.first { !$0.aad.isEmpty })
        let key = hex(vector.key)
        let nonce = hex(vector.nonce)
        let aad = hex(vector.aad)
        let sealed = hex(vector.ciphertext) + hex(vector.tag)
        for index in sealed.indices {
            var altered = sealed
            altered[index] ^= 0x80
            expectCryptoError(.authenticationFailed) {
                try AESCCM128.open(altered, key: key, nonce: nonce, authenticating: aad)
            }
        }
        var alteredAAD = aad
        alteredAAD[0] ^= 1
        expectCryptoError(.authenticationFailed) {
            try AESCCM128.open(sealed, key: key, nonce: nonce, authenticating: alteredAAD)
        }
        var alteredNonce = nonce
        alteredNonce[12] ^= 1
        expectCryptoError(.authenticationFailed) {
            try AESCCM128.open(sealed, key: key, nonce: alteredNonce, authenticating: aad)
        }
        expectCryptoError(.authenticationFailed) {
            try AESCCM128.open(Array(sealed.prefix(15)), key: key, nonce: nonce, authenticating: aad)
        }
        // A failure leaves nothing behind: the next operation on this thread succeeds.
        #expect(try AESCCM128.open(sealed, key: key, nonce: nonce, authenticating: aad) == (hex(vector.plaintext)))
    }

    @Test("Round trip of a Matter-sized message with random key and nonce")
    func roundTrip() throws {
        let key = try SecureRandom.bytes(count: 16)
        let nonce = try SecureRandom.bytes(count: 13)
        let header = try SecureRandom.bytes(count: 8)
        let payload = try SecureRandom.bytes(count: 1200)
        let sealed = try AESCCM128.seal(payload, key: key, nonce: nonce, authenticating: header)
        #expect(sealed.count == payload.count + 16)
        #expect(try AESCCM128.open(sealed, key: key, nonce: nonce, authenticating: header) == payload)
        let otherKey = try SecureRandom.bytes(count: 16)
        expectCryptoError(.authenticationFailed) {
            try AESCCM128.open(sealed, key: otherKey, nonce: nonce, authenticating: header)
        }
    }

    @Test("Wrong key or nonce sizes and oversized plaintext are typed errors")
    func invalidSizes() {
        let key = [UInt8](repeating: 1, count: 16)
        let nonce = [UInt8](repeating: 2, count: 13)
        expectCryptoError(.invalidLength) { try AESCCM128.seal([1], key: Array(key.prefix(15)), nonce: nonce) }
        expectCryptoError(.invalidLength) { try AESCCM128.seal([1], key: key + [0], nonce: nonce) }
        expectCryptoError(.invalidLength) { try AESCCM128.seal([1], key: key, nonce: Array(nonce.prefix(12))) }
        expectCryptoError(.invalidLength) { try AESCCM128.open([UInt8](repeating: 0, count: 20), key: key, nonce: []) }
        expectCryptoError(.invalidParameter) {
            try AESCCM128.seal([UInt8](repeating: 0, count: 0x10000), key: key, nonce: nonce)
        }
    }
}
