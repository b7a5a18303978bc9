import MatterCrypto
import MatterTestSupport
import Testing

@Suite("SHA-256, HMAC, HKDF, PBKDF2")
struct SymmetricTests {
    struct SHAFile: Decodable {
        let vectors: [Vector]
        struct Vector: Decodable { let name, message, digest: String }
    }
    struct HMACFile: Decodable {
        let vectors: [Vector]
        struct Vector: Decodable { let name, key, data, mac: String }
    }
    struct HKDFFile: Decodable {
        let vectors: [Vector]
        struct Vector: Decodable {
            let name, ikm, salt, info, okm: String
            let length: Int
        }
    }
    struct PBKDF2File: Decodable {
        let vectors: [Vector]
        struct Vector: Decodable {
            let name, password, salt, derivedKey: String
            let iterations, length: Int
        }
    }

    @Test("SHA-256 one-shot: FIPS 180-2 examples")
    func sha256OneShot() throws {
        for vector in try VectorFile.load("sha256", as: SHAFile.self, in: .module).vectors {
            #expect(hexString(try SHA256.hash(hex(vector.message))) == vector.digest, "\(vector.name)")
        }
    }

    @Test("SHA-256 incremental: any split gives the one-shot digest")
    func sha256Incremental() throws {
        for vector in try VectorFile.load("sha256", as: SHAFile.self, in: .module).vectors {
            let message = hex(vector.message)
            for split in 0...message.count {
                var hasher = try SHA256()
                try hasher.update(Array(message[..<split]))
                try hasher.update(Array(message[split...]))
                #expect(hexString(try hasher.finalize()) == vector.digest, "\(vector.name), split at \(split)")
            }
        }
    }

    @Test("SHA-256 finalize does not consume the state, and copies fork it (transcript use)")
    func sha256TranscriptSemantics() throws {
        let abc = Array("abc".utf8)
        var transcript = try SHA256()
        try transcript.update(Array("ab".utf8))
        let fork = transcript
        let afterAB = try transcript.finalize()
        try transcript.update(Array("c".utf8))
        #expect(afterAB == (try SHA256.hash(Array("ab".utf8))))
        #expect(try transcript.finalize() == (try SHA256.hash(abc)))
        // The copy taken before "c" still holds only "ab".
        #expect(try fork.finalize() == afterAB)
        var other = fork
        try other.update(Array("x".utf8))
        #expect(try other.finalize() == (try SHA256.hash(Array("abx".utf8))))
        #expect(try fork.finalize() == afterAB)
    }

    @Test("HMAC-SHA256: RFC 4231 cases 1-7")
    func hmacRFC4231() throws {
        for vector in try VectorFile.load("hmac-sha256-rfc4231", as: HMACFile.self, in: .module).vectors {
            let key = hex(vector.key)
            let data = hex(vector.data)
            let expected = hex(vector.mac)
            let mac = try HMACSHA256.authenticationCode(for: data, key: key)
            #expect(mac.count == 32)
            // Case 5 publishes only the first 128 bits.
            #expect(Array(mac.prefix(expected.count)) == expected, "\(vector.name)")
            if expected.count == 32 {
                #expect(try HMACSHA256.isValidAuthenticationCode(expected, for: data, key: key))
                var wrong = expected
                wrong[31] ^= 0x01
                #expect(try !HMACSHA256.isValidAuthenticationCode(wrong, for: data, key: key))
            }
        }
    }

    @Test("HMAC-SHA256 with an empty key equals HMAC with a 64-byte zero key")
    func hmacEmptyKey() throws {
        let message = Array("message".utf8)
        #expect(
            try HMACSHA256.authenticationCode(for: message, key: [])
                == HMACSHA256.authenticationCode(for: message, key: [UInt8](repeating: 0, count: 64))
        )
    }

    @Test("HKDF-SHA256: RFC 5869 cases 1-3 (case 3: empty salt and info)")
    func hkdfRFC5869() throws {
        for vector in try VectorFile.load("hkdf-sha256-rfc5869", as: HKDFFile.self, in: .module).vectors {
            let okm = try HKDFSHA256.deriveKey(
                inputKeyMaterial: hex(vector.ikm), salt: hex(vector.salt), info: hex(vector.info),
                outputByteCount: vector.length)
            #expect(hexString(okm) == vector.okm, "\(vector.name)")
        }
    }

    @Test("HKDF-SHA256 rejects output lengths outside 1...8160")
    func hkdfLengthLimits() throws {
        expectCryptoError(.invalidParameter) {
            try HKDFSHA256.deriveKey(inputKeyMaterial: [1], salt: [], info: [], outputByteCount: 0)
        }
        expectCryptoError(.invalidParameter) {
            try HKDFSHA256.deriveKey(inputKeyMaterial: [1], salt: [], info: [], outputByteCount: 255 * 32 + 1)
        }
        #expect(
            try HKDFSHA256.deriveKey(inputKeyMaterial: [1], salt: [], info: [], outputByteCount: 8160).count == 8160)
    }

    @Test("PBKDF2-HMAC-SHA256: RFC 7914 vectors, RFC 6070 inputs, Matter passcode derivation")
    func pbkdf2Vectors() throws {
        for vector in try VectorFile.load("pbkdf2-hmac-sha256", as: PBKDF2File.self, in: .module).vectors {
            let derived = try PBKDF2SHA256.deriveKey(
                password: hex(vector.password), salt: hex(vector.salt), iterations: vector.iterations,
                outputByteCount: vector.length)
            #expect(hexString(derived) == vector.derivedKey, "\(vector.name)")
        }
    }

    @Test("PBKDF2 rejects a zero iteration count and a zero output length")
    func pbkdf2Limits() {
        expectCryptoError(.invalidParameter) {
            try PBKDF2SHA256.deriveKey(password: [1], salt: [2], iterations: 0, outputByteCount: 32)
        }
        expectCryptoError(.invalidParameter) {
            try PBKDF2SHA256.deriveKey(password: [1], salt: [2], iterations: 1, outputByteCount: 0)
        }
    }

    @Test("Secure random: requested sizes, fresh output, integer helper")
    func secureRandom() throws {
        #expect(try SecureRandom.bytes(count: 0).isEmpty)
        let a = try SecureRandom.bytes(count: 32)
        let b = try SecureRandom.bytes(count: 32)
        #expect(a.count == 32)
        #expect(a != b)  // equal with probability 2^-256
        let values = try (0..<8).map { _ in try SecureRandom.value(UInt64.self) }
        #expect(Set(values).count == values.count)
        expectCryptoError(.invalidParameter) { try SecureRandom.bytes(count: -1) }
    }

    @Test("Constant-time compare and zeroization")
    func secureMemory() {
        #expect(SecureMemory.constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!SecureMemory.constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!SecureMemory.constantTimeEquals([1, 2, 3], [1, 2]))
        #expect(SecureMemory.constantTimeEquals([], []))
        var secret: [UInt8] = [9, 8, 7, 6]
        SecureMemory.zeroize(&secret)
        #expect(secret == [0, 0, 0, 0])
    }
}
