internal import COpenSSL

/// Owns the P-256 `EC_GROUP*` and a scratch `BN_CTX*`; both freed in `deinit`.
///
/// Not `Sendable`: a `BN_CTX` must not be used from two threads at once, so each SPAKE2+ exchange (or each
/// key import) creates its own group.
final class ECGroup {
    private let pointer: OpaquePointer
    private let bnContext: OpaquePointer

    init() throws(CryptoError) {
        pointer = try unwrap(EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1), "EC_GROUP_new_by_curve_name")
        guard let context = BN_CTX_new() else {
            EC_GROUP_free(pointer)
            throw OpenSSLErrorQueue.failure("BN_CTX_new")
        }
        bnContext = context
    }

    deinit {
        BN_CTX_free(bnContext)
        EC_GROUP_free(pointer)
    }

    /// Runs `body` with the group and BN_CTX pointers; `self` is kept alive for the whole call.
    func withPointers<R, E: Error>(_ body: (_ group: OpaquePointer, _ context: OpaquePointer) throws(E) -> R)
        throws(E) -> R
    {
        defer { withExtendedLifetime(self) {} }
        return try body(pointer, bnContext)
    }

    /// The group order n (a copy).
    func order() throws(CryptoError) -> BigNum {
        let n = try BigNum(secret: false)
        let copied = n.withPointer { target in BN_copy(target, EC_GROUP_get0_order(pointer)) }
        guard copied != nil else { throw OpenSSLErrorQueue.failure("BN_copy") }
        return n
    }

    /// `value mod n` as a new secret number.
    func reduceModOrder(_ value: BigNum) throws(CryptoError) -> BigNum {
        let n = try order()
        let result = try BigNum(secret: true)
        try withExtendedLifetime((n, value, result)) { () throws(CryptoError) in
            try result.withPointer { (r) throws(CryptoError) in
                try value.withPointer { (a) throws(CryptoError) in
                    try n.withPointer { (m) throws(CryptoError) in
                        try check(BN_nnmod(r, a, m, bnContext), "BN_nnmod")
                    }
                }
            }
        }
        return result
    }

    /// A uniformly random secret scalar in [1, n-1].
    func randomScalar() throws(CryptoError) -> BigNum {
        let n = try order()
        let scalar = try BigNum(secret: true)
        repeat {
            let rc = withExtendedLifetime(n) {
                scalar.withPointer { s in n.withPointer { m in BN_priv_rand_range(s, m) } }
            }
            try check(rc, "BN_priv_rand_range")
        } while scalar.isZero
        return scalar
    }

    /// Checks that `scalar` is in [1, n-1].
    func isValidNonZeroScalar(_ scalar: BigNum) throws(CryptoError) -> Bool {
        let n = try order()
        return !scalar.isZero && scalar.isLess(than: n)
    }
}
