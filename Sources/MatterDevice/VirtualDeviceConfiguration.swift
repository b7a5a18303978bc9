public import MatterCore
public import MatterCredentials
public import MatterDataModel
public import MatterDiscovery
import MatterStorage
public import MatterTransport

/// Everything that makes one virtual device, with the defaults of the SDK example apps.
public struct VirtualDeviceConfiguration: Sendable {
    /// CLI name of the device type: `on-off-light`, `dimmable-light`, `color-temperature-light`,
    /// `extended-color-light`, `on-off-plug`, `door-lock`.
    public var deviceType: String
    public var discriminator: UInt16 = 3840
    public var passcode: UInt32 = 20_202_021
    /// UDP port (5540 by default; 0 picks a free one).
    public var port: UInt16 = 5540
    /// Overrides of the vendor and product IDs; the DAC's are used otherwise (they must agree).
    public var vendorID: VendorID?
    public var productID: ProductID?
    /// NodeLabel at first start and the DNS-SD device name.
    public var name: String?
    /// BasicInformation SerialNumber and UniqueID to use instead of the random ones kept in storage (a
    /// sharded fleet derives them from its seed).
    public var serialNumber: String?
    public var uniqueID: String?
    /// The SQLite file holding the device's state (fabrics, keys, ACLs, attributes).
    public var storagePath: String
    /// The device's namespace inside the file (one file may hold a fleet).
    public var storageNamespace: String = "device"
    /// An open connection to `storagePath` to use instead of opening one: a fleet's devices share
    /// one (a connection costs two file descriptors, and 10,000 devices would need 20,000).
    var sharedStore: KeyValueStore?
    public var pbkdfIterations: UInt32 = 1000
    /// Network interface to bind to (all when nil).
    public var interface: String?
    /// The test PKI directory (laid out like `fixtures/pki`).
    public var pkiDirectory: String
    /// Network faults on the device's socket (tests, and users testing their controllers).
    public var faults = FaultInjection()
    /// Forget every stored fabric and attribute first.
    public var factoryReset = false
    /// Attribute scripts started with the device (docs/SCRIPTS.md); one that does not fit its
    /// attribute stops the start.
    public var scripts: [ScriptAssignment] = []
    /// How much faster than real time the device's simulated processes run (`--time-scale`).
    public var timeScale: Double = 1
    /// A bridge's devices (`--type aggregator --bridged TYPE:COUNT,...`): device types (CLI names) and
    /// counts, on endpoints 2, 3, ... in this order (docs/BRIDGES.md).
    public var bridged: [(type: String, count: Int)] = []
    /// Why this boot happened (GeneralDiagnostics BootReason): PowerOnReboot for a process start;
    /// a control-plane `reboot` restarts with SoftwareReset.
    public var bootReason = DeviceBootReason.powerOnReboot
    /// Publish through Avahi (false: direct addressing only).
    public var advertise = true
    /// How the records go to Avahi when the device starts its own client: raw records answerable at
    /// once (default), or Avahi services probed first (`--probe`, the slower path, for comparison).
    public var dnssdPublishing = DNSSDPublishing.rawRecords
    /// Which mDNS implementation the device's own DNS-SD client is (`--mdns`): the Avahi daemon (default),
    /// the embedded responder, or Avahi when a daemon answers and the embedded one otherwise.
    public var mdns = MDNSBackend.avahi
    /// A twin of a recorded device (`--from-dump`): its endpoints, clusters and values instead of `deviceType`'s,
    /// its vendor and product IDs, and a test DAC issued at start under the PKI directory's any-vendor PAA.
    public var twin: NodeTwin?
    /// Attestation credentials to use instead of the PKI directory's DAC for the device type (a
    /// fleet issues one DAC per device).
    public var attestation: DeviceAttestationCredentials?
    /// The reliability intervals the device advertises (`SII`/`SAI`/`SAT` in DNS-SD, and its session
    /// parameters in PASE and CASE): peers retransmit to it at these intervals. The spec defaults
    /// unless changed (a peer-chosen value is spec-conformant; the MRP constants stay the spec's).
    public var mrp = MRPParameters.default
    /// The fail-safe a PASE session arms, and the expiry the device suggests to commissioners
    /// (BasicCommissioningInfo.FailSafeExpiryLengthSeconds); the SDK's default is 60 s. While it runs,
    /// other commissioners get BUSY.
    public var failSafeExpirySeconds: UInt16 = 60
    /// The commands one InvokeRequest may carry (BasicInformation MaxPathsPerInvoke, the session
    /// parameters); 1 as the SDK's example apps, at least 1.
    public var maxPathsPerInvoke: UInt16 = 1
    /// Test hook: called on the device's queue at each ``DeviceCheckpoint`` of commissioning. Crash
    /// tests end the process there (the CLI's `MATTER_EMU_TEST_KILL_AT`); nil in normal use.
    public var checkpoint: (@Sendable (DeviceCheckpoint) -> Void)?
    /// Wraps the device's transport before its node uses it (after `faults`), e.g. to time the
    /// handling of each datagram as `matter-emu-bench` does; nil uses the socket as it is.
    public var transportWrapper: (@Sendable (any DatagramTransport) -> any DatagramTransport)?

    public init(deviceType: String, storagePath: String, pkiDirectory: String) {
        self.deviceType = deviceType
        self.storagePath = storagePath
        self.pkiDirectory = pkiDirectory
    }
}
