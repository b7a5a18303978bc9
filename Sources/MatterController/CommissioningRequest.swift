public import MatterCore
public import MatterDiscovery
public import MatterOnboarding
public import MatterSecureChannel
public import MatterStorage

/// What to commission and how to remember it.
public struct CommissioningRequest: Sendable {
    /// How to find the device.
    public enum Locator: Sendable, Hashable {
        /// Browse `_matterc._udp` for this discriminator (long from a QR code, short from a manual
        /// code), keeping only devices of `vendorID`/`productID` when given.
        case discriminator(SetupDiscriminator, vendorID: VendorID?, productID: ProductID?)
        /// Browse for any device with an open commissioning window (chip-tool's `onnetwork`).
        case commissioningMode
        /// The device is at this address (no DNS-SD).
        case address(DirectAddress)
    }

    public var locator: Locator
    public var passcode: UInt32
    /// The device's PBKDF parameters when the onboarding code carries them.
    public var pbkdf: PBKDFParameters?
    /// The node ID to give the device; nil allocates the next free one from the store.
    public var nodeID: NodeID?
    /// A name for the node (unique among nodes and groups).
    public var name: String?
    /// The room to put the node in.
    public var room: String?
    /// Commission even when device attestation fails (recorded for the node). For development only.
    public var skipAttestation = false

    /// A request for the device `locator` finds, opened with `passcode`.
    public init(locator: Locator, passcode: UInt32, nodeID: NodeID? = nil) {
        self.locator = locator
        self.passcode = passcode
        self.nodeID = nodeID
    }

    /// A request from a parsed QR or manual code: its discriminator, vendor and product (when not 0)
    /// select the device, its passcode and PBKDF parameters open PASE.
    public init(payload: SetupPayload, nodeID: NodeID? = nil) {
        let vendor = payload.vendorID.rawValue == 0 ? nil : payload.vendorID
        let product = payload.productID.rawValue == 0 ? nil : payload.productID
        self.init(
            locator: .discriminator(payload.discriminator, vendorID: vendor, productID: product),
            passcode: payload.passcode, nodeID: nodeID)
        if let iterations = payload.pbkdfIterations, let salt = payload.pbkdfSalt {
            pbkdf = PBKDFParameters(iterations: iterations, salt: salt)
        }
    }
}

/// What commissioning produced.
public struct CommissioningResult: Sendable {
    /// The node as stored.
    public let node: ControllerNode
    /// The operational address the node answered CASE on.
    public let operationalAddress: String
    /// Every stage's events, in order.
    public let events: [CommissioningEvent]
}
