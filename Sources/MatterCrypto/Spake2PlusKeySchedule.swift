internal import MatterCore

/// The SPAKE2+ transcript and key schedule of draft-bar-cfrg-spake2plus-01, as Matter uses it:
///
/// ```
/// TT  = len‖Context ‖ len‖idProver ‖ len‖idVerifier ‖ len‖M ‖ len‖N ‖ len‖X ‖ len‖Y ‖ len‖Z ‖ len‖V ‖ len‖w0
///       (each len an 8-byte little-endian byte count; points uncompressed, w0 32 bytes big-endian)
/// K   = SHA-256(TT);  Ka = K[0..<16];  Ke = K[16..<32]
/// KcA‖KcB = HKDF-SHA256(IKM = Ka, salt = empty, info = "ConfirmationKeys", 32)
/// cA  = HMAC-SHA256(KcA, Y);  cB = HMAC-SHA256(KcB, X)
/// ```
///
/// Exposed to the package for tests that check every intermediate against the published vectors.
package struct Spake2PlusKeySchedule: Sendable {
    /// HKDF info for the confirmation keys.
    static let confirmationKeysInfo = Array("ConfirmationKeys".utf8)

    /// Z and V, the two Diffie-Hellman points, uncompressed.
    package private(set) var z: [UInt8]
    package private(set) var v: [UInt8]
    /// The transcript TT.
    package private(set) var transcript: [UInt8]
    /// K = SHA-256(TT).
    package private(set) var k: [UInt8]
    package private(set) var kcA: [UInt8]
    package private(set) var kcB: [UInt8]
    /// HMAC(KcA, Y): the prover's confirmation.
    package let cA: [UInt8]
    /// HMAC(KcB, X): the verifier's confirmation.
    package let cB: [UInt8]

    package var ka: [UInt8] { Array(k[0..<16]) }
    package var ke: [UInt8] { Array(k[16..<32]) }

    init(
        context: [UInt8], proverIdentity: [UInt8], verifierIdentity: [UInt8],
        x: [UInt8], y: [UInt8], z: [UInt8], v: [UInt8], w0: [UInt8]
    ) throws(CryptoError) {
        var writer = ByteWriter(
            capacity: 8 * 10 + context.count + proverIdentity.count + verifierIdentity.count + 5 * 65 + 32)
        for item in [context, proverIdentity, verifierIdentity, Spake2Plus.pointM, Spake2Plus.pointN, x, y, z, v, w0] {
            writer.writeLE(UInt64(item.count))
            writer.writeBytes(item)
        }
        self.z = z
        self.v = v
        transcript = writer.bytes
        k = try SHA256.hash(transcript)
        var ka = Array(k[0..<16])
        defer { SecureMemory.zeroize(&ka) }
        var confirmationKeys = try HKDFSHA256.deriveKey(
            inputKeyMaterial: ka, salt: [], info: Self.confirmationKeysInfo, outputByteCount: 32)
        defer { SecureMemory.zeroize(&confirmationKeys) }
        kcA = Array(confirmationKeys[0..<16])
        kcB = Array(confirmationKeys[16..<32])
        cA = try HMACSHA256.authenticationCode(for: y, key: kcA)
        cB = try HMACSHA256.authenticationCode(for: x, key: kcB)
    }

    /// Overwrites the secret intermediates (best effort; see ``SecureMemory/zeroize(_:)``).
    mutating func zeroize() {
        SecureMemory.zeroize(&z)
        SecureMemory.zeroize(&v)
        SecureMemory.zeroize(&transcript)
        SecureMemory.zeroize(&k)
        SecureMemory.zeroize(&kcA)
        SecureMemory.zeroize(&kcB)
    }
}

/// Parsing of SPAKE2+ scalars (w0, w1, and injected x/y in tests).
enum Spake2PlusScalar {
    /// A 32-byte big-endian scalar in [1, n-1], as a secret `BigNum`.
    static func parse(_ bytes: [UInt8], name: String, group: ECGroup) throws(CryptoError) -> BigNum {
        guard bytes.count == Spake2Plus.scalarByteCount else {
            throw .invalidLength(what: "SPAKE2+ \(name)", expected: Spake2Plus.scalarByteCount, actual: bytes.count)
        }
        let scalar = try BigNum(bytes: bytes, secret: true)
        guard try group.isValidNonZeroScalar(scalar) else {
            throw .invalidParameter("SPAKE2+ \(name) must be in [1, n-1] for the P-256 group order n")
        }
        return scalar
    }
}
