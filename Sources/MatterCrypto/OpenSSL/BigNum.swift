internal import COpenSSL

/// Owns one `BIGNUM*`; freed in `deinit` (cleared first when it holds a secret).
///
/// OpenSSL 3's `BIGNUM` is opaque, so every number is heap-allocated. Secret numbers ask for OpenSSL's
/// constant-time code paths (`BN_FLG_CONSTTIME`).
final class BigNum {
    private let pointer: OpaquePointer
    let isSecret: Bool

    init(secret: Bool) throws(CryptoError) {
        pointer = try unwrap(secret ? BN_secure_new() : BN_new(), "BN_new")
        isSecret = secret
        if secret { BN_set_flags(pointer, BN_FLG_CONSTTIME) }
    }

    /// The big-endian unsigned integer `bytes`.
    convenience init(bytes: [UInt8], secret: Bool) throws(CryptoError) {
        try self.init(secret: secret)
        let length = try int32Length(bytes.count, "big number")
        let result = bytes.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, length, pointer) }
        guard result != nil else { throw OpenSSLErrorQueue.failure("BN_bin2bn") }
    }

    deinit {
        if isSecret { BN_clear_free(pointer) } else { BN_free(pointer) }
    }

    /// Runs `body` with the raw pointer; `self` is kept alive for the whole call.
    func withPointer<R, E: Error>(_ body: (OpaquePointer) throws(E) -> R) throws(E) -> R {
        defer { withExtendedLifetime(self) {} }
        return try body(pointer)
    }

    /// Big-endian bytes, left-padded with zeros to `length`. Throws if the number does not fit.
    func bytes(paddedTo length: Int) throws(CryptoError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length)
        let written = out.withUnsafeMutableBufferPointer { BN_bn2binpad(pointer, $0.baseAddress, Int32(length)) }
        guard written == Int32(length) else { throw OpenSSLErrorQueue.failure("BN_bn2binpad") }
        return out
    }

    var isZero: Bool { BN_is_zero(pointer) == 1 }

    /// Number of significant bits.
    var bitCount: Int { Int(BN_num_bits(pointer)) }

    /// Whether `self < other`.
    func isLess(than other: BigNum) -> Bool {
        withExtendedLifetime(other) { BN_cmp(pointer, other.pointer) < 0 }
    }
}
