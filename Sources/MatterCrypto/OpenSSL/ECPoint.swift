internal import COpenSSL

/// Owns one `EC_POINT*` on P-256; freed in `deinit`.
///
/// Scalar multiplications take one scalar and one point at a time (`k·G` or `k·P`), never OpenSSL's combined
/// `k1·G + k2·P` form, whose code path is not constant time for secret scalars.
final class ECPoint {
    private let pointer: OpaquePointer
    let group: ECGroup

    /// The point at infinity.
    init(group: ECGroup) throws(CryptoError) {
        self.group = group
        pointer = try group.withPointers { (g, _) throws(CryptoError) in try unwrap(EC_POINT_new(g), "EC_POINT_new") }
    }

    /// Decodes a 65-byte uncompressed SEC1 point (`04‖X‖Y`) and checks that it lies on P-256 and is not the
    /// identity. `what` names the value in the error.
    convenience init(group: ECGroup, uncompressed bytes: [UInt8], what: String) throws(CryptoError) {
        guard bytes.count == 65 else {
            throw .invalidPoint("\(what) must be a 65-byte uncompressed point, got \(bytes.count) bytes")
        }
        guard bytes[0] == 0x04 else {
            throw .invalidPoint("\(what) must start with 0x04 (uncompressed), got 0x\(String(bytes[0], radix: 16))")
        }
        try self.init(group: group)
        let decoded = group.withPointers { g, ctx in
            bytes.withUnsafeBufferPointer { EC_POINT_oct2point(g, pointer, $0.baseAddress, $0.count, ctx) }
        }
        guard decoded == 1 else {
            OpenSSLErrorQueue.clear()
            throw .invalidPoint("\(what) is not a point on P-256")
        }
        guard isOnCurve else { throw .invalidPoint("\(what) is not a point on P-256") }
        guard !isAtInfinity else { throw .invalidPoint("\(what) is the point at infinity") }
    }

    deinit { EC_POINT_free(pointer) }

    /// Runs `body` with the raw pointer; `self` is kept alive for the whole call.
    func withPointer<R, E: Error>(_ body: (OpaquePointer) throws(E) -> R) throws(E) -> R {
        defer { withExtendedLifetime(self) {} }
        return try body(pointer)
    }

    /// 65-byte uncompressed encoding. Throws for the point at infinity (which has no such encoding).
    func uncompressed() throws(CryptoError) -> [UInt8] {
        guard !isAtInfinity else { throw .invalidPoint("the point at infinity has no uncompressed encoding") }
        var out = [UInt8](repeating: 0, count: 65)
        let written = group.withPointers { g, ctx in
            out.withUnsafeMutableBufferPointer {
                EC_POINT_point2oct(g, pointer, POINT_CONVERSION_UNCOMPRESSED, $0.baseAddress, $0.count, ctx)
            }
        }
        guard written == 65 else { throw OpenSSLErrorQueue.failure("EC_POINT_point2oct") }
        return out
    }

    /// `k·G`.
    static func generatorMultiplied(by k: BigNum, group: ECGroup) throws(CryptoError) -> ECPoint {
        let result = try ECPoint(group: group)
        try group.withPointers { (g, ctx) throws(CryptoError) in
            try result.withPointer { (r) throws(CryptoError) in
                try k.withPointer { (scalar) throws(CryptoError) in
                    try check(EC_POINT_mul(g, r, scalar, nil, nil, ctx), "EC_POINT_mul(k·G)")
                }
            }
        }
        return result
    }

    /// `k·self`.
    func multiplied(by k: BigNum) throws(CryptoError) -> ECPoint {
        let result = try ECPoint(group: group)
        try group.withPointers { (g, ctx) throws(CryptoError) in
            try result.withPointer { (r) throws(CryptoError) in
                try k.withPointer { (scalar) throws(CryptoError) in
                    try check(EC_POINT_mul(g, r, nil, pointer, scalar, ctx), "EC_POINT_mul(k·P)")
                }
            }
        }
        return result
    }

    /// `self + other`.
    func adding(_ other: ECPoint) throws(CryptoError) -> ECPoint {
        let result = try ECPoint(group: group)
        try group.withPointers { (g, ctx) throws(CryptoError) in
            try result.withPointer { (r) throws(CryptoError) in
                try other.withPointer { (o) throws(CryptoError) in
                    try check(EC_POINT_add(g, r, pointer, o, ctx), "EC_POINT_add")
                }
            }
        }
        return result
    }

    /// `self − other`.
    func subtracting(_ other: ECPoint) throws(CryptoError) -> ECPoint {
        let negated = try ECPoint(group: group)
        try group.withPointers { (g, ctx) throws(CryptoError) in
            try negated.withPointer { (n) throws(CryptoError) in
                try other.withPointer { (o) throws(CryptoError) in
                    try check(EC_POINT_copy(n, o), "EC_POINT_copy")
                    try check(EC_POINT_invert(g, n, ctx), "EC_POINT_invert")
                }
            }
        }
        return try adding(negated)
    }

    var isOnCurve: Bool { group.withPointers { g, ctx in EC_POINT_is_on_curve(g, pointer, ctx) == 1 } }
    var isAtInfinity: Bool { group.withPointers { g, _ in EC_POINT_is_at_infinity(g, pointer) == 1 } }
}
