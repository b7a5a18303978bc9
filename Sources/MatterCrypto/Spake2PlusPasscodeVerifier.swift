/// What a device stores for PASE instead of its passcode: w0 (32 bytes) and L = w1·G (65 bytes).
///
/// Serialized as `w0‖L`, 97 bytes: Matter's "PAKE passcode verifier" (the SDK's `Spake2pVerifier`, and the
/// `PAKEPasscodeVerifier` field of OpenCommissioningWindow).
public struct Spake2PlusPasscodeVerifier: Sendable {
    /// Size of the serialized form `w0‖L`.
    public static let serializedByteCount = Spake2Plus.scalarByteCount + Spake2Plus.shareByteCount

    /// w0, 32 bytes big-endian, in [1, n-1].
    public let w0: [UInt8]
    /// L = w1·G, 65-byte uncompressed point.
    public let l: [UInt8]

    /// Derives the verifier from a setup passcode (see ``Spake2Plus/proverSecrets(passcode:salt:iterations:)``).
    public init(passcode: UInt32, salt: [UInt8], iterations: Int) throws(CryptoError) {
        var secrets = try Spake2Plus.proverSecrets(passcode: passcode, salt: salt, iterations: iterations)
        defer { SecureMemory.zeroize(&secrets.w1) }
        w0 = secrets.w0
        l = try Spake2Plus.verifierPoint(w1: secrets.w1)
    }

    /// Wraps w0 and L, validating both (w0 in [1, n-1]; L a P-256 point other than the identity).
    public init(w0: [UInt8], l: [UInt8]) throws(CryptoError) {
        let group = try ECGroup()
        _ = try Spake2PlusScalar.parse(w0, name: "w0", group: group)
        _ = try ECPoint(group: group, uncompressed: l, what: "verifier point L")
        self.w0 = w0
        self.l = l
    }

    /// Parses the 97-byte `w0‖L` form.
    public init(serialized bytes: [UInt8]) throws(CryptoError) {
        guard bytes.count == Self.serializedByteCount else {
            throw .invalidLength(
                what: "SPAKE2+ passcode verifier (w0‖L)", expected: Self.serializedByteCount,
                actual: bytes.count)
        }
        try self.init(w0: Array(bytes[0..<Spake2Plus.scalarByteCount]), l: Array(bytes[Spake2Plus.scalarByteCount...]))
    }

    /// The 97-byte `w0‖L` form.
    public var serialized: [UInt8] { w0 + l }
}
