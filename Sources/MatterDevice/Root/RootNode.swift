import Dispatch
import MatterClusters
import MatterCore
import MatterCredentials
import MatterCrypto
import MatterDataModel
import MatterInteraction
import MatterSecureChannel
import MatterTLV
import MatterTransport

/// The root node of a virtual device: fabrics, the fail-safe, commissioning windows, and the
/// root-node clusters that change them (GeneralCommissioning, OperationalCredentials,
/// AdministratorCommissioning, GroupKeyManagement, NetworkCommissioning, GeneralDiagnostics,
/// AccessControl). Confined to the device's node queue (hence `@unchecked Sendable`).
final class RootNode: @unchecked Sendable, CASECredentialsProvider {
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

    let configuration: Configuration
    let persistence: DevicePersistence
    let pase: PASEResponder
    let caseResponder: CASEResponder
    unowned var node: TransportNode!
    let clock: any MatterClock
    let log = Logger(label: "device")
    var onChange: ((Change) -> Void)?
    /// Called when a cluster attribute of the root node changed (data version bumps).
    var onAttributesChanged: (([(ClusterID, AttributeID?)]) -> Void)?
    /// Records an AccessControlEntryChanged event (fields, fabric index); set by the AccessControl server.
    var onACLEvent: ((TLVValue, UInt8) -> Void)?
    /// Test hook for crash-consistency tests (`VirtualDeviceConfiguration.checkpoint`).
    var checkpoint: (@Sendable (DeviceCheckpoint) -> Void)?

    /// Every fabric, committed or pending (the pending one is `failSafe.addedFabric`).
    var fabrics: [UInt8: DeviceFabric] = [:]
    /// Every fabric's ACL entries; the data model asks it for every access check.
    let accessControl = AccessControlList()
    var failSafe: FailSafe?
    var breadcrumb: UInt64 = 0
    var regulatoryConfig: UInt8 = 0
    var window: CommissioningWindow = .closed
    /// The PASE session in use, if any (one at a time, as SDK devices do).
    var paseSession: SessionID?
    var timer: (any DispatchSourceTimer)?
    let startTime: UInt64
    /// GeneralDiagnostics ActiveHardwareFaults (HardwareFaultEnum values), set from the control plane.
    var activeHardwareFaults: [UInt8] = []

    init(configuration: Configuration, persistence: DevicePersistence, clock: any MatterClock,
         resumption: CASEResumptionStore) throws(DeviceError) {
        self.configuration = configuration
        self.persistence = persistence
        self.clock = clock
        startTime = clock.nowMilliseconds()
        pase = PASEResponder()
        caseResponder = CASEResponder(credentials: nil, resumption: resumption)
        try load()
        caseResponder.credentials = self
        pase.commissioningInProgress = { [unowned self] in commissioningWait() }
    }

    /// How long the commissioning in progress still owns the device (ms, 1...65535), nil when none
    /// does: a PASE session is up, or a fail-safe is armed (by PASE or by an administrator over CASE).
    func commissioningWait() -> UInt16? {
        if let failSafe {
            let now = clock.nowMilliseconds()
            let end = min(failSafe.expiresAt, failSafe.cumulativeDeadline)
            return UInt16(clamping: max(end > now ? end - now : 0, 1))
        }
        return paseSession == nil ? nil : 1000
    }

    /// The fabric a session belongs to (CASE), or the fabric AddNOC bound a PASE session to.
    func fabricIndex(of session: SessionID) -> UInt8 {
        guard let parameters = node.assumeIsolated({ $0.secureSession(session) }) else { return 0 }
        switch parameters.kind {
        case .case(let index, _, _, _): return index
        case .pase:
            if let failSafe, failSafe.armingSession == session, let added = failSafe.addedFabric { return added }
            return 0
        }
    }

    /// Committed fabrics (not the one pending under the fail-safe).
    var committedFabrics: [DeviceFabric] {
        fabrics.values.filter { $0.index != failSafe?.addedFabric }.sorted { $0.index < $1.index }
    }

    // MARK: CASECredentialsProvider

    func caseCredentials() -> [CASECredentials] {
        fabrics.values.sorted { $0.index < $1.index }.compactMap { try? $0.caseCredentials() }
    }

    // MARK: Persistence

    private func load() throws(DeviceError) {
        do {
            for key in try persistence.keys() {
                if key.hasPrefix("fabric."), let bytes = try persistence.get(key) {
                    let fabric = try DeviceFabric(decoding: bytes)
                    fabrics[fabric.index] = fabric
                } else if key.hasPrefix("acl."), let index = UInt8(key.dropFirst(4)), let bytes = try persistence.get(key) {
                    guard case .array(let items)? = try? TLVElement.decode(bytes).value,
                          let entries = try? items.map({ e throws(StatusIB) in try AccessControlEntry(tlv: e) })
                    else {
                        throw DeviceError.storage("ACL of fabric \(index) is unreadable")
                    }
                    accessControl.replaceEntries(fabric: index, with: entries)
                }
            }
        } catch let error as DeviceError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }

    func aclBytes(_ index: UInt8) -> [UInt8] {
        TLVElement(.array(accessControl.entries(fabric: index).map { TLVElement($0.tlvValue()) })).encoded()
    }

    /// Persists fabrics and their ACLs together, in one transaction; false (logged) when that failed.
    @discardableResult
    func persist(fabrics indices: [UInt8]) -> Bool {
        var sets: [(String, [UInt8])] = []
        for index in indices {
            guard let fabric = fabrics[index] else { continue }
            sets.append((DevicePersistence.fabricKey(index), fabric.encoded()))
            sets.append((DevicePersistence.aclKey(index), aclBytes(index)))
        }
        do {
            try persistence.commit(sets: sets)
            return true
        } catch {
            log.error("could not persist fabrics \(indices): \(error)")
            return false
        }
    }

    func persistACL(_ index: UInt8) {
        guard index != failSafe?.addedFabric else { return }  // pending: written at commit
        do {
            try persistence.commit(sets: [(DevicePersistence.aclKey(index), aclBytes(index))])
        } catch {
            log.error("could not persist the ACL of fabric \(index): \(error)")
        }
    }

    func forget(fabric index: UInt8) {
        fabrics[index] = nil
        accessControl.removeFabric(index)
        caseResponder.resumption.removeFabric(index)
        do {
            try persistence.commit(sets: [], removals: [DevicePersistence.fabricKey(index), DevicePersistence.aclKey(index)])
        } catch {
            log.error("could not remove fabric \(index) from storage: \(error)")
        }
    }

    // MARK: Windows

    /// Opens the basic window (the device's own passcode); at start when no fabric exists.
    func openBasicWindow(timeoutSeconds: UInt16?) {
        window = .basic(deadline: timeoutSeconds.map { clock.nowMilliseconds() + UInt64($0) * 1000 })
        pase.credentials = configuration.basicCredentials
        rearmTimer()
        onChange?(.windowChanged)
        changed(.administratorCommissioning, nil)
    }

    func closeWindow() {
        guard window.isOpen else { return }
        window = .closed
        pase.credentials = nil
        rearmTimer()
        onChange?(.windowChanged)
        changed(.administratorCommissioning, nil)
    }

    /// The discriminator commissionable advertising uses now.
    var advertisedDiscriminator: UInt16 {
        if case .enhanced(_, let discriminator, _, _) = window { return discriminator }
        return configuration.discriminator
    }

    // MARK: Fail-safe

    /// Arms or re-arms; returns the GeneralCommissioning error code (0 OK, 4 BusyWithOtherAdmin).
    func armFailSafe(seconds: UInt16, fabricIndex: UInt8?, session: SessionID?) -> UInt8 {
        let now = clock.nowMilliseconds()
        if var current = failSafe {
            let sameContext = current.fabricIndex == fabricIndex || (current.fabricIndex == nil && session == current.armingSession)
                || (current.addedFabric != nil && current.addedFabric == fabricIndex)
            guard sameContext else { return 4 }
            if seconds == 0 {
                expireFailSafe(reason: "disarmed by ArmFailSafe(0)")
                return 0
            }
            current.expiresAt = min(now + UInt64(seconds) * 1000, current.cumulativeDeadline)
            failSafe = current
        } else {
            if seconds == 0 { return 0 }
            // Not armed, a window open, and the request over CASE: another admin is commissioning.
            if window.isOpen, fabricIndex != nil, paseSession != nil { return 4 }
            failSafe = FailSafe(expiresAt: now + UInt64(seconds) * 1000,
                                cumulativeDeadline: now + UInt64(configuration.maxCumulativeFailSafeSeconds) * 1000,
                                fabricIndex: fabricIndex, armingSession: session)
        }
        rearmTimer()
        return 0
    }

    /// Rolls back everything added under the fail-safe (spec 11.10.7.2.2, in order).
    func expireFailSafe(reason: String) {
        guard let context = failSafe else { return }
        failSafe = nil
        log.notice("fail-safe expired (\(reason)): rolling back")
        var closing: [SessionID] = []
        if let session = paseSession {
            closing.append(session)
            paseSession = nil
        }
        if let added = context.addedFabric { closing += sessions(of: added) }
        closeSessionsSoon(closing)
        if let previous = context.updatedFabric { fabrics[previous.index] = previous }
        if let added = context.addedFabric {
            fabrics[added] = nil
            accessControl.removeFabric(added)
            caseResponder.resumption.removeFabric(added)
        }
        breadcrumb = 0
        rearmTimer()
        onChange?(.fabricsChanged)
        onChange?(.paseSessionChanged)
        changed(.operationalCredentials, nil)
        changed(.generalCommissioning, nil)
        changed(.accessControl, nil)
    }

    /// CommissioningComplete: commit and disarm (spec 11.10.7.6). The fabric the fail-safe added (or
    /// the one UpdateNOC changed) is written in one transaction first: if that write fails, nothing is
    /// committed, the fail-safe stays armed (its expiry rolls the changes back) and this returns false.
    func commitFailSafe() -> Bool {
        guard let context = failSafe else { return false }
        let written = [context.addedFabric, context.updatedFabric?.index].compactMap { $0 }
        if !written.isEmpty, !persist(fabrics: written) { return false }
        failSafe = nil
        breadcrumb = 0
        closeWindow()
        if let session = paseSession {
            closeSessionsSoon([session])
            paseSession = nil
        }
        rearmTimer()
        onChange?(.fabricsChanged)
        changed(.generalCommissioning, nil)
        return true
    }

    // MARK: Sessions

    /// The CASE sessions of a fabric.
    func sessions(of fabric: UInt8) -> [SessionID] {
        node.assumeIsolated { node in
            node.secureSessionList.compactMap { parameters in
                if case .case(let index, _, _, _) = parameters.kind, index == fabric {
                    return .secure(localSessionID: parameters.localSessionID)
                }
                return nil
            }
        }
    }

    /// Closes sessions once the response of the command being handled has gone out (and had time
    /// to be acknowledged): closing them inside the handler would lose that response.
    func closeSessionsSoon(_ sessions: [SessionID]) {
        guard !sessions.isEmpty else { return }
        let node = self.node!
        node.queue.asyncAfter(deadline: .now() + .milliseconds(500)) {
            node.assumeIsolated { node in
                for session in sessions { node.removeSecureSession(session) }
            }
        }
    }

    func paseEstablished(_ session: SessionID) {
        if let previous = paseSession, previous != session { node.assumeIsolated { $0.removeSecureSession(previous) } }
        paseSession = session
        // PASE arms the fail-safe for 60 s without a fabric (SDK CommissioningWindowManager).
        if failSafe == nil { _ = armFailSafe(seconds: configuration.failSafeExpirySeconds, fabricIndex: nil, session: session) }
        onChange?(.paseSessionChanged)
        checkpoint?(.paseEstablished)
    }

    func sessionClosed(_ session: SessionID) {
        guard session == paseSession else { return }
        paseSession = nil
        // Losing the PASE session that armed a fail-safe without a fabric expires it.
        if let context = failSafe, context.armingSession == session, context.addedFabric == nil {
            expireFailSafe(reason: "PASE session closed")
        }
        onChange?(.paseSessionChanged)
    }

    // MARK: Timer

    func rearmTimer() {
        var deadline: UInt64?
        if let failSafe { deadline = min(failSafe.expiresAt, failSafe.cumulativeDeadline) }
        switch window {
        case .basic(let d?): deadline = min(deadline ?? d, d)
        case .enhanced(let d, _, _, _): deadline = min(deadline ?? d, d)
        default: break
        }
        guard let deadline else {
            timer?.schedule(deadline: .distantFuture)
            return
        }
        let timer = self.timer ?? {
            let t = DispatchSource.makeTimerSource(queue: node.queue)
            t.setEventHandler { [weak self] in self?.serviceTimers() }
            t.schedule(deadline: .distantFuture)
            t.resume()
            self.timer = t
            return t
        }()
        let now = clock.nowMilliseconds()
        timer.schedule(deadline: .now() + .milliseconds(Int(deadline > now ? deadline - now : 0)), leeway: .milliseconds(5))
    }

    func serviceTimers() {
        let now = clock.nowMilliseconds()
        if let failSafe, now >= min(failSafe.expiresAt, failSafe.cumulativeDeadline) {
            expireFailSafe(reason: "timer")
        }
        switch window {
        case .basic(let d?) where now >= d: closeWindow()
        case .enhanced(let d, _, _, _) where now >= d: closeWindow()
        default: break
        }
        rearmTimer()
    }

    func stop() {
        timer?.cancel()
        timer = nil
    }

    func changed(_ cluster: ClusterID, _ attribute: AttributeID?) {
        onAttributesChanged?([(cluster, attribute)])
    }
}
