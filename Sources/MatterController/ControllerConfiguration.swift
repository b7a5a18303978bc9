public import MatterCore
public import MatterCredentials
public import MatterDiscovery
public import MatterStorage
public import MatterTransport

/// What a ``Controller`` runs on: its store, its datagram transport, how it finds nodes, whom it
/// trusts, and its timeouts.
public struct ControllerConfiguration: Sendable {
    /// How the controller finds nodes on the network.
    public enum Discovery: Sendable {
        /// The system's Avahi daemon, started on first use (commands with direct addresses never
        /// need it).
        case avahi
        /// DNS-SD through the chosen mDNS implementation (`--mdns`), started on first use: `.avahi` is the
        /// same as the case above, `.embedded` our own querier on port 5353, `.auto` Avahi when a daemon
        /// answers and the embedded one otherwise.
        case mdns(MDNSBackend)
        /// A given browser (an in-memory one in tests, or a `StaticResolver`).
        case browser(any MatterNodeBrowser)
        /// None: only direct addresses and last known addresses work.
        case none
    }

    /// The store; its fabric is created on first use.
    public var store: ControllerStore
    /// The datagram transport (a `UDPEndpoint` on any port, or an in-memory endpoint in tests). Its
    /// queue becomes the controller's executor.
    public var transport: any DatagramTransport
    public var discovery: Discovery
    /// The PAAs device attestation trusts (default: ``DefaultPAATrustStore``).
    public var trustStore: PAATrustStore
    /// Milliseconds, for protocol timers.
    public var clock: any MatterClock
    /// How long to look for a commissionable device.
    public var discoveryTimeout: Duration = .seconds(10)
    /// How long to wait for a node's operational record.
    public var resolveTimeout: Duration = .seconds(5)
    /// After AddNOC, open CASE at the address PASE used while DNS-SD looks up the node's operational
    /// record, instead of waiting for the record first (the CASE checks are the same). The stored
    /// address is the advertised one when the lookup has answered by the end, else the one CASE
    /// succeeded on. False waits for the record, as the SDK's commissioner does.
    public var caseAtCommissioningAddress = true
    /// How long to wait for each response once the peer acknowledged the request, milliseconds (the
    /// SDK's commissioning steps allow 30 s). A silent peer fails sooner, when MRP gives up.
    public var responseTimeout: UInt64 = 30_000
    /// The timed-interaction window for commands and writes that need one, milliseconds.
    public var timedInteractionTimeout: UInt16 = 10_000
    /// The reliability intervals this controller advertises.
    public var localMRP: MRPParameters = .default
    /// The reliability intervals assumed for a peer that advertised none (direct addresses).
    public var defaultPeerMRP: MRPParameters = .default
    /// The country code sent with SetRegulatoryConfig.
    public var countryCode = "XX"
    /// How many more times a request the node did not answer (MRP gave up, or no response in time)
    /// is sent again, and a PASE or CASE handshake tried again. Only requests that are safe to repeat
    /// are: reads, writes, idempotent commands (On, Off, MoveToLevel...; never Toggle) and the
    /// commissioning commands, whose repeats are checked on the device (a repeated
    /// AddTrustedRootCertificate, AddNOC or CommissioningComplete that the device had already
    /// accepted counts as done once the device shows the root, the fabric, or the committed fabric).
    public var interactionRetries = 2
    /// How many times commissioning is run from PASE on when the device stopped answering in the
    /// middle (it restarted, or its session was lost): the earlier attempt is disarmed first.
    public var commissioningAttempts = 3
    /// How long a commissioning keeps asking a device that answers PASE with BUSY: another
    /// commissioning owns it (its fail-safe, 60 s by default, must end first) or a handshake whose
    /// initiator died blocks it (for 30 s). Zero gives up at the first BUSY.
    public var paseBusyPatience: Duration = .seconds(75)
    /// Test hook: called in the controller's isolation at each ``CommissioningCheckpoint``. Crash
    /// tests end the process there (the CLI's `MATTER_EMU_TEST_KILL_AT`); nil in normal use.
    public var checkpoint: (@Sendable (CommissioningCheckpoint) -> Void)?
    /// Secure sessions (PASE and CASE) kept at once; beyond this the least recently used is closed
    /// and the next command to its node opens a new one. A controller keeps one per node it talks to,
    /// so this is sized for a large installation, well above a device's 64.
    public var sessionCapacity = 1024
    /// PASE and CASE handshakes in flight at once: a group command reaches every member at once, and
    /// each member without a session needs a handshake.
    public var handshakeCapacity = 1024

    /// A configuration with the default timeouts and intervals.
    public init(
        store: ControllerStore, transport: any DatagramTransport, discovery: Discovery = .avahi,
        trustStore: PAATrustStore, clock: any MatterClock = SystemClock()
    ) {
        self.store = store
        self.transport = transport
        self.discovery = discovery
        self.trustStore = trustStore
        self.clock = clock
    }
}
