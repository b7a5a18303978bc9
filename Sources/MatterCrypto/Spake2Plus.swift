/// SPAKE2+ over P-256 with SHA-256, HKDF and HMAC, exactly as Matter's PASE uses it: the key schedule of
/// draft-bar-cfrg-spake2plus-01 (not RFC 9383's), Matter's M and N, identities empty by default.
///
/// Roles: the commissioner is the ``Spake2PlusProver`` (knows the passcode, hence w0 and w1); the device is the
/// ``Spake2PlusVerifier`` (stores only w0 and L = w1·G, see ``Spake2PlusPasscodeVerifier``).
///
/// ```
/// prover                                    verifier
/// X = prover.makeShare()          ── pA ─▶  (Y, cB) = verifier.respond(toProverShare: X)
/// cA = prover.confirm(verifierShare: Y,
///        verifierConfirmation: cB) ◀─ pB,cB ─
///                                 ── cA ─▶  verifier.verifyProverConfirmation(cA)
/// prover.sharedKey == verifier.sharedKey   (Ke, the IKM of PASE's "SessionKeys" HKDF)
/// ```
public enum Spake2Plus {
    /// Size of a share (X or Y): an uncompressed P-256 point.
    public static let shareByteCount = 65
    /// Size of w0 and w1: P-256 scalars, big-endian.
    public static let scalarByteCount = 32
    /// Size of a key-confirmation MAC (cA, cB).
    public static let confirmationByteCount = 32
    /// Size of the shared key Ke.
    public static let sharedKeyByteCount = 16
    /// PBKDF2 iteration counts Matter allows for PASE.
    public static let iterationRange = 1000...100_000
    /// Salt sizes Matter allows for PASE.
    public static let saltByteCountRange = 16...32

    /// The fixed point M (uncompressed) from draft-bar-cfrg-spake2plus-01 for P-256.
    package static let pointM: [UInt8] = [
        0x04, 0x88, 0x6e, 0x2f, 0x97, 0xac, 0xe4, 0x6e, 0x55, 0xba, 0x9d, 0xd7, 0x24,
        0x25, 0x79, 0xf2, 0x99, 0x3b, 0x64, 0xe1, 0x6e, 0xf3, 0xdc, 0xab, 0x95, 0xaf,
        0xd4, 0x97, 0x33, 0x3d, 0x8f, 0xa1, 0x2f, 0x5f, 0xf3, 0x55, 0x16, 0x3e, 0x43,
        0xce, 0x22, 0x4e, 0x0b, 0x0e, 0x65, 0xff, 0x02, 0xac, 0x8e, 0x5c, 0x7b, 0xe0,
        0x94, 0x19, 0xc7, 0x85, 0xe0, 0xca, 0x54, 0x7d, 0x55, 0xa1, 0x2e, 0x2d, 0x20,
    ]

    /// The fixed point N (uncompressed) from draft-bar-cfrg-spake2plus-01 for P-256.
    package static let pointN: [UInt8] = [
        0x04, 0xd8, 0xbb, 0xd6, 0xc6, 0x39, 0xc6, 0x29, 0x37, 0xb0, 0x4d, 0x99, 0x7f,
        0x38, 0xc3, 0x77, 0x07, 0x19, 0xc6, 0x29, 0xd7, 0x01, 0x4d, 0x49, 0xa2, 0x4b,
        0x4f, 0x98, 0xba, 0xa1, 0x29, 0x2b, 0x49, 0x07, 0xd6, 0x0a, 0xa6, 0xbf, 0xad,
        0xe4, 0x50, 0x08, 0xa6, 0x36, 0x33, 0x7f, 0x51, 0x68, 0xc6, 0x4d, 0x9b, 0xd3,
        0x60, 0x34, 0x80, 0x8c, 0xd5, 0x64, 0x49, 0x0b, 0x1e, 0x65, 0x6e, 0xdb, 0xe7,
    ]

    /// The prover's secrets from a setup passcode:
    /// `w0s‖w1s = PBKDF2-HMAC-SHA256(passcode as 4-byte little-endian, salt, iterations, 80)`,
    /// `w0 = w0s mod n`, `w1 = w1s mod n` (n = the P-256 group order), each returned as 32 bytes big-endian.
    ///
    /// Throws ``CryptoError/invalidParameter(_:)`` when `iterations` or the salt size is outside Matter's
    /// limits (``iterationRange``, ``saltByteCountRange``).
    public static func proverSecrets(passcode: UInt32, salt: [UInt8], iterations: Int)
        throws(CryptoError) -> (w0: [UInt8], w1: [UInt8])
    {
        guard iterationRange.contains(iterations) else {
            throw .invalidParameter(
                "PASE PBKDF2 iterations must be in \(iterationRange), got \(iterations)"
            )
        }
        guard saltByteCountRange.contains(salt.count) else {
            throw .invalidParameter(
                "PASE salt must be \(saltByteCountRange) bytes long, got \(salt.count)"
            )
        }
        let password: [UInt8] = (0..<4).map { UInt8(truncatingIfNeeded: passcode >> (8 * $0)) }
        var ws = try PBKDF2SHA256.deriveKey(password: password, salt: salt, iterations: iterations, outputByteCount: 80)
        defer { SecureMemory.zeroize(&ws) }
        let group = try ECGroup()
        let w0 = try group.reduceModOrder(try BigNum(bytes: Array(ws[0..<40]), secret: true))
        let w1 = try group.reduceModOrder(try BigNum(bytes: Array(ws[40..<80]), secret: true))
        return (try w0.bytes(paddedTo: scalarByteCount), try w1.bytes(paddedTo: scalarByteCount))
    }

    /// `L = w1·G`, the 65-byte uncompressed point a verifier stores instead of w1.
    public static func verifierPoint(w1: [UInt8]) throws(CryptoError) -> [UInt8] {
        let group = try ECGroup()
        let scalar = try Spake2PlusScalar.parse(w1, name: "w1", group: group)
        return try ECPoint.generatorMultiplied(by: scalar, group: group).uncompressed()
    }
}
