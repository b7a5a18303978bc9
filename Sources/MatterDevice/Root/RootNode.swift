import MatterClusters
import MatterCore
import MatterCredentials
import MatterCrypto
import MatterDataModel
import MatterInteraction
import MatterSecureChannel
import MatterTLV
import MatterTransport

/// The root node of a virtual device: owns the state its root-node clusters share (the
/// ``FabricTable``, the ``FailSafe``, the ``CommissioningWindowManager``), the PASE and CASE
/// responders that use it, and makes the cluster servers of endpoint 0 that change it (one per
/// cluster and file: GeneralCommissioningServer, OperationalCredentialsServer, ...). It performs the
/// node-level effects of the shared state (sessions closed after an expiry or a commit, reports of
/// the clusters concerned, advertising changes) through ``NodeSessions``, without a reference to the
/// node. Made in the node's isolation and not `Sendable`: the device's `Sendable` facade holds it in
/// a `NodeBound` and reaches it only there.
final class RootNode: CASECredentialsProvider {
    struct Configuration: Sendable {
        var vendorID: VendorID
        var productID: ProductID
        var discriminator: UInt16
        /// The device's own passcode verifier, for basic windows.
        var basicCredentials: PASEResponder.Credentials
        var attestation: DeviceAttestationCredentials
        var failSafeExpirySeconds: UInt16 = 60
        var maxCumulativeFailSafeSeconds: UInt16 = 900
        var supportedFabrics: UInt8 = 16
        var interfaceName: String = "eth0"
        /// GeneralDiagnostics BootReason of this boot (BootReasonEnum) and RebootCount (persisted).
        var bootReason: UInt8 = 1
        var rebootCount: UInt16 = 0
    }

    /// What changed, for advertising and logs.
    enum Change {
        case fabricsChanged
        case windowChanged
        case paseSessionChanged
    }

    /// The root-node cluster servers, for the reports of changes the shared state makes.
    private struct Servers {
        weak var generalCommissioning: GeneralCommissioningServer?
        weak var operationalCredentials: OperationalCredentialsServer?
        weak var administratorCommissioning: AdministratorCommissioningServer?
        weak var accessControl: AccessControlServer?
        weak var groupKeyManagement: GroupKeyManagementServer?
    }

    let configuration: Configuration
    let fabrics: FabricTable
    let failSafe: FailSafe
    let windows: CommissioningWindowManager
    let pase: PASEResponder
    let caseResponder: CASEResponder
    let sessions: NodeSessions
    let closer: SessionCloser
    let clock: any MatterClock
    let log = Logger(label: "device")
    var onChange: ((Change) -> Void)?
    /// Test hook for crash-consistency tests (`VirtualDeviceConfiguration.checkpoint`).
    var checkpoint: (@Sendable (DeviceCheckpoint) -> Void)?
    private var servers = Servers()
    /// When the node started (GeneralDiagnostics.UpTime).
    let startTime: UInt64

    init(
        configuration: Configuration, persistence: DevicePersistence, clock: any MatterClock,
        resumption: CASEResumptionStore, sessions: NodeSessions
    ) throws(DeviceError) {
        self.configuration = configuration
        self.clock = clock
        self.sessions = sessions
        startTime = clock.nowMilliseconds()
        fabrics = try FabricTable(persistence: persistence, resumption: resumption)
        failSafe = FailSafe(
            fabrics: fabrics, clock: clock, expirySeconds: configuration.failSafeExpirySeconds,
            maxCumulativeSeconds: configuration.maxCumulativeFailSafeSeconds)
        pase = PASEResponder()
        windows = CommissioningWindowManager(
            pase: pase, clock: clock, basicCredentials: configuration.basicCredentials,
            discriminator: configuration.discriminator)
        caseResponder = CASEResponder(credentials: nil, resumption: resumption)
        closer = SessionCloser(sessions: sessions, clock: clock)
        caseResponder.credentials = self
        pase.commissioningInProgress = { [unowned self] in commissioningWait() }
        fabrics.onChange = { [unowned self] in onChange?(.fabricsChanged) }
        windows.onChange = { [unowned self] in
            onChange?(.windowChanged)
            servers.administratorCommissioning?.allAttributesChanged()
        }
        failSafe.onExpired = { [unowned self] context, added in failSafeExpired(context, added: added) }
        failSafe.onCommitted = { [unowned self] in failSafeCommitted() }
    }

    /// The cluster servers of endpoint 0 over the root node's state, in the order endpoint 0 lists them.
    func makeClusterServers() -> [ClusterServer] {
        let accessControl = AccessControlServer(fabrics: fabrics, checkpoint: checkpoint)
        let generalCommissioning = GeneralCommissioningServer(
            failSafe: failSafe, windows: windows, checkpoint: checkpoint)
        let operationalCredentials = OperationalCredentialsServer(
            fabrics: fabrics, failSafe: failSafe, windows: windows, sessions: sessions, closer: closer,
            attestation: configuration.attestation, supportedFabrics: configuration.supportedFabrics,
            checkpoint: checkpoint)
        let administratorCommissioning = AdministratorCommissioningServer(
            windows: windows, failSafe: failSafe, fabrics: fabrics)
        let groupKeyManagement = GroupKeyManagementServer(fabrics: fabrics)
        servers = Servers(
            generalCommissioning: generalCommissioning, operationalCredentials: operationalCredentials,
            administratorCommissioning: administratorCommissioning, accessControl: accessControl,
            groupKeyManagement: groupKeyManagement)
        return [
            accessControl, generalCommissioning,
            NetworkCommissioningServer(interfaceName: configuration.interfaceName),
            GeneralDiagnosticsServer(
                interfaceName: configuration.interfaceName, clock: clock, startTime: startTime,
                bootReason: configuration.bootReason, rebootCount: configuration.rebootCount),
            administratorCommissioning, operationalCredentials, groupKeyManagement,
        ]
    }

    /// Puts the fail-safe, window and session-closing timers on the node's scheduler (the data
    /// model's, on the injected clock).
    func startTimers(on dataModel: DeviceDataModel) {
        failSafe.timer = dataModel.makeTimer { [unowned failSafe] in failSafe.timerFired() }
        windows.timer = dataModel.makeTimer { [unowned windows] in windows.timerFired() }
        closer.timer = dataModel.makeTimer { [unowned closer] in closer.timerFired() }
        failSafe.rearm()
        windows.rearm()
        // A removed (or rolled-back) fabric's groups and scenes leave the data model.
        fabrics.onRemoved = { [weak dataModel] index in dataModel?.fabricRemoved(index) }
    }

    /// How long the commissioning in progress still owns the device (ms, 1...65535), nil when none
    /// does: a PASE session is up, or a fail-safe is armed (by PASE or by an administrator over CASE).
    func commissioningWait() -> UInt16? {
        if let remaining = failSafe.remainingMilliseconds { return UInt16(clamping: remaining) }
        return windows.paseSession == nil ? nil : 1000
    }

    /// The fabric a PASE session is bound to: the one AddNOC created under the fail-safe it armed (0
    /// for none). CASE sessions carry their fabric themselves.
    func fabricIndex(ofPASE session: SessionID) -> UInt8 {
        if failSafe.context?.armingSession == session, let added = failSafe.addedFabric { return added }
        return 0
    }

    /// Committed fabrics (not the one pending under the fail-safe).
    var committedFabrics: [DeviceFabric] { fabrics.committed }

    // MARK: CASECredentialsProvider

    func caseCredentials() -> [CASECredentials] {
        fabrics.all.compactMap { try? $0.caseCredentials() }
    }

    // MARK: Fail-safe effects

    /// After a rollback: the PASE session and the added fabric's sessions close; the clusters report.
    private func failSafeExpired(_ context: FailSafe.Context, added: UInt8?) {
        var closing: [SessionID] = []
        if let session = windows.paseSession {
            closing.append(session)
            windows.paseSession = nil
        }
        if let added { closing += sessions.sessions(ofFabric: added) }
        closer.closeSoon(closing)
        onChange?(.fabricsChanged)
        onChange?(.paseSessionChanged)
        servers.operationalCredentials?.allAttributesChanged()
        servers.generalCommissioning?.allAttributesChanged()
        servers.accessControl?.allAttributesChanged()
        servers.groupKeyManagement?.allAttributesChanged()
    }

    /// After CommissioningComplete: the window closes, so does the PASE session.
    private func failSafeCommitted() {
        windows.close()
        if let session = windows.paseSession {
            closer.closeSoon([session])
            windows.paseSession = nil
        }
        onChange?(.fabricsChanged)
        servers.generalCommissioning?.allAttributesChanged()
    }

    // MARK: Sessions

    func paseEstablished(_ session: SessionID) {
        if let previous = windows.paseSession, previous != session { sessions.remove(previous) }
        windows.paseSession = session
        // PASE arms the fail-safe for 60 s without a fabric (SDK CommissioningWindowManager).
        if !failSafe.isArmed {
            _ = failSafe.arm(
                seconds: configuration.failSafeExpirySeconds, fabricIndex: nil, session: session,
                otherAdminCommissioning: false)
        }
        onChange?(.paseSessionChanged)
        checkpoint?(.paseEstablished)
    }

    func sessionClosed(_ session: SessionID) {
        guard session == windows.paseSession else { return }
        windows.paseSession = nil
        // Losing the PASE session that armed a fail-safe without a fabric expires it.
        if let context = failSafe.context, context.armingSession == session, failSafe.addedFabric == nil {
            failSafe.expire(reason: "PASE session closed")
        }
        onChange?(.paseSessionChanged)
    }

    /// Stops the timers (the data model cancels them at shutdown too).
    func stop() {
        failSafe.timer?.cancel()
        windows.timer?.cancel()
        closer.timer?.cancel()
    }
}
