/// The SPAKE2+ prover: Matter's commissioner side of PASE, which knows the passcode (w0 and w1).
///
/// One instance runs one exchange: ``makeShare()`` once, then
/// ``confirm(verifierShare:verifierConfirmation:)`` once. After any error the instance is spent.
/// Not thread-safe: keep it confined to the session that owns it.
public final class Spake2PlusProver {
    private enum State { case ready, shared, confirmed, failed }

    private let group: ECGroup
    private let context: [UInt8]
    private let proverIdentity: [UInt8]
    private let verifierIdentity: [UInt8]
    private var w0Bytes: [UInt8]
    private let w0: BigNum
    private let w1: BigNum
    private var x: BigNum?
    private var share: [UInt8]?
    private var state = State.ready
    /// Every intermediate of the exchange, once the verifier's share has been processed (for tests).
    package private(set) var keySchedule: Spake2PlusKeySchedule?

    /// A prover with w0 and w1 (32 bytes each, big-endian, in [1, n-1]).
    ///
    /// - Parameters:
    ///   - context: bytes both sides hash first into the transcript; for PASE, SHA-256 of
    ///     "CHIP PAKE V1 Commissioning" ‖ PBKDFParamRequest ‖ PBKDFParamResponse.
    ///   - proverIdentity, verifierIdentity: empty in Matter.
    public init(
        context: [UInt8],
        w0: [UInt8],
        w1: [UInt8],
        proverIdentity: [UInt8] = [],
        verifierIdentity: [UInt8] = []
    ) throws(CryptoError) {
        group = try ECGroup()
        self.w0 = try Spake2PlusScalar.parse(w0, name: "w0", group: group)
        self.w1 = try Spake2PlusScalar.parse(w1, name: "w1", group: group)
        w0Bytes = w0
        self.context = context
        self.proverIdentity = proverIdentity
        self.verifierIdentity = verifierIdentity
    }

    /// A prover for a setup passcode and the device's PBKDF2 parameters.
    public convenience init(context: [UInt8], passcode: UInt32, salt: [UInt8], iterations: Int) throws(CryptoError) {
        var secrets = try Spake2Plus.proverSecrets(passcode: passcode, salt: salt, iterations: iterations)
        defer {
            SecureMemory.zeroize(&secrets.w0)
            SecureMemory.zeroize(&secrets.w1)
        }
        try self.init(context: context, w0: secrets.w0, w1: secrets.w1)
    }

    deinit {
        SecureMemory.zeroize(&w0Bytes)
        keySchedule?.zeroize()
    }

    /// Ke, the 16-byte shared key, available once the verifier's confirmation has been checked. PASE derives
    /// its session keys from it (HKDF, info "SessionKeys").
    public var sharedKey: [UInt8]? {
        state == .confirmed ? keySchedule?.ke : nil
    }

    /// Step 1: picks a random x and returns the share X = x·G + w0·M (pA, 65 bytes).
    public func makeShare() throws(CryptoError) -> [UInt8] {
        try makeShare(using: try group.randomScalar())
    }

    /// Step 1 with a fixed x (32 bytes, in [1, n-1]), for known-answer tests only.
    package func makeShare(fixedScalar: [UInt8]) throws(CryptoError) -> [UInt8] {
        try makeShare(using: try Spake2PlusScalar.parse(fixedScalar, name: "x", group: group))
    }

    private func makeShare(using scalar: BigNum) throws(CryptoError) -> [UInt8] {
        guard state == .ready else { throw .invalidState("SPAKE2+ prover share already made") }
        state = .failed
        let m = try ECPoint(group: group, uncompressed: Spake2Plus.pointM, what: "M")
        let point = try ECPoint.generatorMultiplied(by: scalar, group: group).adding(try m.multiplied(by: w0))
        let bytes = try point.uncompressed()
        x = scalar
        share = bytes
        state = .shared
        return bytes
    }

    /// Step 2: takes the verifier's share Y (pB) and confirmation cB, checks cB, and returns cA (32 bytes) to
    /// send in Pake3.
    ///
    /// Throws ``CryptoError/invalidPoint(_:)`` for a malformed Y, ``CryptoError/invalidLength(what:expected:actual:)``
    /// for a cB of the wrong size, and ``CryptoError/confirmationFailed`` when cB does not match (wrong passcode).
    public func confirm(verifierShare y: [UInt8], verifierConfirmation cB: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard state == .shared, let x, let share else {
            throw .invalidState("SPAKE2+ prover must make its share once before processing the verifier's")
        }
        state = .failed
        guard cB.count == Spake2Plus.confirmationByteCount else {
            throw .invalidLength(
                what: "SPAKE2+ confirmation cB", expected: Spake2Plus.confirmationByteCount,
                actual: cB.count)
        }
        let yPoint = try ECPoint(group: group, uncompressed: y, what: "verifier share Y")
        let n = try ECPoint(group: group, uncompressed: Spake2Plus.pointN, what: "N")
        let unblinded = try yPoint.subtracting(try n.multiplied(by: w0))
        guard !unblinded.isAtInfinity else { throw .invalidPoint("verifier share Y equals w0·N") }
        let z = try unblinded.multiplied(by: x)
        let v = try unblinded.multiplied(by: w1)
        let schedule = try Spake2PlusKeySchedule(
            context: context, proverIdentity: proverIdentity, verifierIdentity: verifierIdentity,
            x: share, y: y, z: try z.uncompressed(), v: try v.uncompressed(), w0: w0Bytes)
        keySchedule = schedule
        guard SecureMemory.constantTimeEquals(schedule.cB, cB) else { throw .confirmationFailed }
        state = .confirmed
        return schedule.cA
    }
}
