internal import COpenSSL

/// OpenSSL calls behind the public HMAC, HKDF, PBKDF2, random and memory helpers. Inputs are validated by
/// the public wrappers; this layer only maps return codes.
enum OpenSSLSymmetric {
    static func hmacSHA256(key: [UInt8], message: [UInt8]) throws(CryptoError) -> [UInt8] {
        let md = try OpenSSLAlgorithms.shared.sha256()
        let keyLength = try int32Length(key.count, "HMAC key")
        var mac = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBuffer in
            message.withUnsafeBytes { messageBuffer in
                // The one-shot HMAC() is not deprecated in 3.0 (HMAC_CTX_* is). An empty key still gets a non-NULL
                // pointer (an empty Swift buffer's baseAddress may be nil): OpenSSL's HMAC initialisation reads a
                // NULL key as "keep the previous key", not as "empty key".
                withUnsafePointer(to: UInt8(0)) { emptyKey in
                    HMAC(
                        md, keyBuffer.baseAddress ?? UnsafeRawPointer(emptyKey), keyLength,
                        messageBuffer.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBuffer.count,
                        &mac, &length)
                }
            }
        }
        guard result != nil, length == 32 else { throw OpenSSLErrorQueue.failure("HMAC") }
        return mac
    }

    static func hkdfSHA256(ikm: [UInt8], salt: [UInt8], info: [UInt8], length: Int) throws(CryptoError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length)
        let rc = ikm.withUnsafeBytes { ikmBuffer in
            salt.withUnsafeBytes { saltBuffer in
                info.withUnsafeBytes { infoBuffer in
                    out.withUnsafeMutableBytes { outBuffer in
                        COpenSSL_HKDF_SHA256(
                            ikmBuffer.baseAddress, ikmBuffer.count, saltBuffer.baseAddress,
                            saltBuffer.count, infoBuffer.baseAddress, infoBuffer.count,
                            outBuffer.baseAddress, outBuffer.count)
                    }
                }
            }
        }
        try check(rc, "EVP_KDF_derive(HKDF)")
        return out
    }

    static func pbkdf2SHA256(password: [UInt8], salt: [UInt8], iterations: Int32, length: Int32)
        throws(CryptoError) -> [UInt8]
    {
        let md = try OpenSSLAlgorithms.shared.sha256()
        let passwordLength = try int32Length(password.count, "PBKDF2 password")
        let saltLength = try int32Length(salt.count, "PBKDF2 salt")
        var out = [UInt8](repeating: 0, count: Int(length))
        let rc = password.withUnsafeBytes { passwordBuffer in
            salt.withUnsafeBytes { saltBuffer in
                out.withUnsafeMutableBytes { outBuffer in
                    PKCS5_PBKDF2_HMAC(
                        passwordBuffer.baseAddress?.assumingMemoryBound(to: CChar.self), passwordLength,
                        saltBuffer.baseAddress?.assumingMemoryBound(to: UInt8.self), saltLength,
                        iterations, md, length,
                        outBuffer.baseAddress?.assumingMemoryBound(to: UInt8.self))
                }
            }
        }
        try check(rc, "PKCS5_PBKDF2_HMAC")
        return out
    }

    static func randomBytes(_ count: Int) throws(CryptoError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let length = try int32Length(count, "random byte count")
        let rc = out.withUnsafeMutableBytes { RAND_bytes($0.baseAddress?.assumingMemoryBound(to: UInt8.self), length) }
        try check(rc, "RAND_bytes")
        return out
    }

    static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { aBuffer in
            b.withUnsafeBytes { bBuffer in CRYPTO_memcmp(aBuffer.baseAddress, bBuffer.baseAddress, aBuffer.count) == 0 }
        }
    }

    static func cleanse(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { OPENSSL_cleanse(base, buffer.count) }
        }
    }
}
