internal import COpenSSL

/// Conversion between Matter's raw ECDSA form (r‖s, 32 bytes each, big-endian) and DER
/// (`SEQUENCE { INTEGER r, INTEGER s }`) through OpenSSL's `ECDSA_SIG`.
enum ECDSASignatureDER {
    /// Parses a DER signature strictly (canonical DER, no trailing bytes, r and s at most 256 bits).
    static func raw(fromDER der: [UInt8]) throws(CryptoError) -> [UInt8] {
        var consumed = 0
        let parsed = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            let sig = d2i_ECDSA_SIG(nil, &cursor, buffer.count)
            if let cursor { consumed = cursor - base }
            return sig
        }
        guard let sig = parsed else {
            OpenSSLErrorQueue.clear()
            throw .invalidSignature("not a DER ECDSA-Sig-Value")
        }
        defer { ECDSA_SIG_free(sig) }
        guard consumed == der.count else {
            throw .invalidSignature("\(der.count - consumed) trailing bytes after the DER")
        }
        // get0: borrowed pointers, owned by `sig`.
        guard let r = ECDSA_SIG_get0_r(sig), let s = ECDSA_SIG_get0_s(sig) else {
            throw .invalidSignature("r or s missing")
        }
        guard BN_num_bits(r) <= 256, BN_num_bits(s) <= 256 else {
            throw .invalidSignature("r or s is longer than 32 bytes")
        }
        var out = [UInt8](repeating: 0, count: 64)
        let written = out.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return BN_bn2binpad(r, base, 32) == 32 && BN_bn2binpad(s, base + 32, 32) == 32
        }
        guard written else { throw OpenSSLErrorQueue.failure("BN_bn2binpad") }
        // d2i accepts some non-minimal encodings; re-encoding and comparing rejects them.
        guard try self.der(fromRaw: out) == der else { throw .invalidSignature("not canonical DER") }
        return out
    }

    /// Encodes a 64-byte r‖s as DER.
    static func der(fromRaw raw: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard raw.count == 64 else {
            throw .invalidLength(what: "raw ECDSA signature", expected: 64, actual: raw.count)
        }
        let sig = try unwrap(ECDSA_SIG_new(), "ECDSA_SIG_new")
        defer { ECDSA_SIG_free(sig) }
        let halves = raw.withUnsafeBufferPointer { buffer -> (OpaquePointer?, OpaquePointer?) in
            guard let base = buffer.baseAddress else { return (nil, nil) }
            return (BN_bin2bn(base, 32, nil), BN_bin2bn(base + 32, 32, nil))
        }
        // set0 takes ownership of r and s only when it succeeds.
        guard let r = halves.0, let s = halves.1, ECDSA_SIG_set0(sig, r, s) == 1 else {
            BN_free(halves.0)
            BN_free(halves.1)
            throw OpenSSLErrorQueue.failure("ECDSA_SIG_set0")
        }
        var buffer: UnsafeMutablePointer<UInt8>?
        let length = i2d_ECDSA_SIG(sig, &buffer)  // allocates when *buffer == NULL
        defer { COpenSSL_free(buffer) }
        guard length > 0, let buffer else { throw OpenSSLErrorQueue.failure("i2d_ECDSA_SIG") }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(length)))
    }
}
