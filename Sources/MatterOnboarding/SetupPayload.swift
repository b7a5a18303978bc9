public import MatterCore

/// What a QR code or manual pairing code tells a commissioner about a device.
///
/// Fixed fields (both formats unless noted):
///
/// | Field | Bits | Notes |
/// |---|---|---|
/// | version | 3 | 0 |
/// | vendorID | 16 | 0 = unspecified, else 1...0xFFF4 |
/// | productID | 16 | 0 only with vendor ID 0 |
/// | commissioningFlow | 2 | 3 is reserved |
/// | discoveryCapabilities | 8 | QR only |
/// | discriminator | 12 | QR: long; manual code: top 4 bits |
/// | passcode | 27 | 1...99 999 998 minus trivial values |
///
/// Optional TLV data (QR only), context tags in an anonymous structure; 0x00–0x7F are Matter-common,
/// 0x80–0xFF vendor-specific:
///
/// | Tag | Field | Type |
/// |---|---|---|
/// | 0x00 | serialNumber | UTF-8 string (≤ 32 bytes) or unsigned integer (32 bits) |
/// | 0x01 | pbkdfIterations | unsigned, 1000...100000 |
/// | 0x02 | pbkdfSalt | octet string, 16...32 bytes |
/// | 0x03 | numberOfDevices | unsigned, 1...255 |
/// | 0x04 | commissioningTimeout | unsigned, 16 bits, seconds |
///
/// Parsers fill the fields without judging them; ``validate(_:)`` applies the rules, and the code
/// generators call it unless told not to.
public struct SetupPayload: Hashable, Sendable {
    /// A serial number in the optional data: text or a number.
    public enum SerialNumber: Hashable, Sendable, CustomStringConvertible {
        case string(String)
        case number(UInt32)

        public var description: String {
            switch self {
            case .string(let text): text
            case .number(let value): String(value)
            }
        }
    }

    /// Payload format version (3 bits; only 0 is valid).
    public var version: UInt8
    /// 0 when unspecified (short manual codes).
    public var vendorID: VendorID
    /// 0 when unspecified (short manual codes).
    public var productID: ProductID
    public var commissioningFlow: CommissioningFlow
    /// How the device can be discovered; nil when unknown (a manual code does not carry it).
    public var discoveryCapabilities: DiscoveryCapabilities?
    public var discriminator: SetupDiscriminator
    /// The setup passcode (setup PIN code).
    public var passcode: UInt32

    /// Optional data tag 0x00.
    public var serialNumber: SerialNumber?
    /// Optional data tag 0x01.
    public var pbkdfIterations: UInt32?
    /// Optional data tag 0x02.
    public var pbkdfSalt: [UInt8]?
    /// Optional data tag 0x03: devices in the package (enhanced commissioning).
    public var numberOfDevices: UInt8?
    /// Optional data tag 0x04, in seconds.
    public var commissioningTimeout: UInt16?
    /// Other optional-data elements, kept in the order read: vendor-specific ones, and Matter-common
    /// tags this version does not know. Written before the fields above, as the SDK writes vendor data first.
    public var additionalElements: [OptionalDataElement]

    public init(
        version: UInt8 = 0,
        vendorID: VendorID = VendorID(0),
        productID: ProductID = ProductID(0),
        commissioningFlow: CommissioningFlow = .standard,
        discoveryCapabilities: DiscoveryCapabilities? = nil,
        discriminator: SetupDiscriminator,
        passcode: UInt32,
        serialNumber: SerialNumber? = nil,
        pbkdfIterations: UInt32? = nil,
        pbkdfSalt: [UInt8]? = nil,
        numberOfDevices: UInt8? = nil,
        commissioningTimeout: UInt16? = nil,
        additionalElements: [OptionalDataElement] = []
    ) {
        self.version = version
        self.vendorID = vendorID
        self.productID = productID
        self.commissioningFlow = commissioningFlow
        self.discoveryCapabilities = discoveryCapabilities
        self.discriminator = discriminator
        self.passcode = passcode
        self.serialNumber = serialNumber
        self.pbkdfIterations = pbkdfIterations
        self.pbkdfSalt = pbkdfSalt
        self.numberOfDevices = numberOfDevices
        self.commissioningTimeout = commissioningTimeout
        self.additionalElements = additionalElements
    }

    /// True when the payload carries any optional TLV data.
    public var hasOptionalData: Bool {
        serialNumber != nil || pbkdfIterations != nil || pbkdfSalt != nil || numberOfDevices != nil
            || commissioningTimeout != nil || !additionalElements.isEmpty
    }
}
