public import MatterCore
import MatterCrypto
public import MatterOnboarding

/// Everything that makes one device of a sharded fleet itself, derived by ``FleetLayout``.
public struct FleetIdentity: Sendable, Equatable {
    public let shard: Int
    public let index: Int
    /// `shard × countPerShard + index`.
    public let globalIndex: Int
    public let discriminator: UInt16
    public let passcode: UInt32
    /// 0 when the layout's base port is 0 (the device picks a free one).
    public let port: UInt16
    /// BasicInformation SerialNumber (16 hex digits).
    public let serialNumber: String
    /// BasicInformation UniqueID (32 hex digits).
    public let uniqueID: String
    /// The DAC's certificate serial number (8 bytes, positive).
    public let dacSerialNumber: [UInt8]
    /// The bytes the DAC's private key comes from (``dacPrivateKey()``).
    let dacKeySeed: [UInt8]

    /// The onboarding payload the device advertises (the fleet's devices keep the test vendor ID).
    public func setupPayload(productID: ProductID) -> SetupPayload {
        SetupPayload(
            vendorID: VendorID.testVendor1, productID: productID, commissioningFlow: .standard,
            discoveryCapabilities: .onNetwork, discriminator: .long(discriminator), passcode: passcode)
    }

    /// The DAC's P-256 key: the seed bytes as the scalar, or (for the one seed in 2^32 that is not a
    /// valid scalar) their SHA-256, again until one is.
    func dacPrivateKey() throws(CryptoError) -> P256PrivateKey {
        var scalar = dacKeySeed
        for _ in 0..<8 {
            if let key = try? P256PrivateKey(rawRepresentation: scalar) { return key }
            scalar = try SHA256.hash(scalar)
        }
        return try P256PrivateKey(rawRepresentation: scalar)
    }
}
