/// The SPAKE2+ verifier: Matter's device side of PASE, which stores only w0 and L = w1·G.
///
/// One instance runs one exchange: ``respond(toProverShare:)`` once, then ``verifyProverConfirmation(_:)`` once.
/// After any error the instance is spent. Not thread-safe: keep it confined to the session that owns it.
public final class Spake2PlusVerifier {
    private enum State { case ready, responded, confirmed, failed }

    private let group: ECGroup
    private let context: [UInt8]
    private let proverIdentity: [UInt8]
    private let verifierIdentity: [UInt8]
    private var w0Bytes: [UInt8]
    private let w0: BigNum
    private let l: ECPoint
    private var state = State.ready
    /// Every intermediate of the exchange, once the prover's share has been processed (for tests).
    package private(set) var keySchedule: Spake2PlusKeySchedule?

    /// A verifier with w0 (32 bytes, in [1, n-1]) and L (65-byte uncompressed point).
    ///
    /// - Parameters:
    ///   - context: bytes both sides hash first into the transcript (see ``Spake2PlusProver``).
    ///   - proverIdentity, verifierIdentity: empty in Matter.
    public init(
        context: [UInt8],
        w0: [UInt8],
        l: [UInt8],
        proverIdentity: [UInt8] = [],
        verifierIdentity: [UInt8] = []
    ) throws(CryptoError) {
        group = try ECGroup()
        self.w0 = try Spake2PlusScalar.parse(w0, name: "w0", group: group)
        self.l = try ECPoint(group: group, uncompressed: l, what: "verifier point L")
        w0Bytes = w0
        self.context = context
        self.proverIdentity = proverIdentity
        self.verifierIdentity = verifierIdentity
    }

    /// A verifier from a stored passcode verifier.
    public convenience init(context: [UInt8], passcodeVerifier: Spake2PlusPasscodeVerifier) throws(CryptoError) {
        try self.init(context: context, w0: passcodeVerifier.w0, l: passcodeVerifier.l)
    }

    deinit {
        SecureMemory.zeroize(&w0Bytes)
        keySchedule?.zeroize()
    }

    /// Ke, the 16-byte shared key, available once the prover's confirmation has been checked.
    public var sharedKey: [UInt8]? {
        state == .confirmed ? keySchedule?.ke : nil
    }

    /// Step 1: takes the prover's share X (pA), picks a random y, and returns Y = y·G + w0·N (pB) and the
    /// confirmation cB to send in Pake2. Throws ``CryptoError/invalidPoint(_:)`` for a malformed X.
    public func respond(toProverShare x: [UInt8]) throws(CryptoError) -> (share: [UInt8], confirmation: [UInt8]) {
        try respond(toProverShare: x, using: try group.randomScalar())
    }

    /// Step 1 with a fixed y (32 bytes, in [1, n-1]), for known-answer tests only.
    package func respond(toProverShare x: [UInt8], fixedScalar: [UInt8])
        throws(CryptoError) -> (share: [UInt8], confirmation: [UInt8])
    {
        try respond(toProverShare: x, using: try Spake2PlusScalar.parse(fixedScalar, name: "y", group: group))
    }

    private func respond(toProverShare x: [UInt8], using y: BigNum)
        throws(CryptoError) -> (share: [UInt8], confirmation: [UInt8])
    {
        guard state == .ready else { throw .invalidState("SPAKE2+ verifier already responded") }
        state = .failed
        let xPoint = try ECPoint(group: group, uncompressed: x, what: "prover share X")
        let m = try ECPoint(group: group, uncompressed: Spake2Plus.pointM, what: "M")
        let n = try ECPoint(group: group, uncompressed: Spake2Plus.pointN, what: "N")
        let unblinded = try xPoint.subtracting(try m.multiplied(by: w0))
        guard !unblinded.isAtInfinity else { throw .invalidPoint("prover share X equals w0·M") }
        let share = try ECPoint.generatorMultiplied(by: y, group: group).adding(try n.multiplied(by: w0)).uncompressed()
        let z = try unblinded.multiplied(by: y)
        let v = try l.multiplied(by: y)
        let schedule = try Spake2PlusKeySchedule(
            context: context, proverIdentity: proverIdentity, verifierIdentity: verifierIdentity,
            x: x, y: share, z: try z.uncompressed(), v: try v.uncompressed(), w0: w0Bytes)
        keySchedule = schedule
        state = .responded
        return (share, schedule.cB)
    }

    /// Step 2: checks the prover's confirmation cA (from Pake3). Throws ``CryptoError/confirmationFailed`` when it
    /// does not match (wrong passcode); afterwards ``sharedKey`` is available.
    public func verifyProverConfirmation(_ cA: [UInt8]) throws(CryptoError) {
        guard state == .responded, let schedule = keySchedule else {
            throw .invalidState("SPAKE2+ verifier must respond to the prover's share before checking cA")
        }
        state = .failed
        guard cA.count == Spake2Plus.confirmationByteCount else {
            throw .invalidLength(
                what: "SPAKE2+ confirmation cA", expected: Spake2Plus.confirmationByteCount,
                actual: cA.count)
        }
        guard SecureMemory.constantTimeEquals(schedule.cA, cA) else { throw .confirmationFailed }
        state = .confirmed
    }
}
