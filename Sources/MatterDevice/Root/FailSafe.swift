import MatterCore
import MatterCrypto
import MatterDataModel
import MatterTransport

/// The commissioning fail-safe (spec 11.10.7.2, commissioning-flow.md §3): armed by PASE or
/// ArmFailSafe, it records what is added under it (a trusted root, a CSR key, a fabric, a replaced
/// NOC) so that expiry rolls all of it back and CommissioningComplete commits it; and the breadcrumb.
///
/// State over the ``FabricTable``, shared by GeneralCommissioning, OperationalCredentials and
/// AdministratorCommissioning; the node-level effects of an expiry or a commit (closing sessions,
/// the window, reports) are the root node's (``onExpired``, ``onCommitted``). Its timer runs on the
/// node's scheduler. Confined to the node's queue.
final class FailSafe {
    /// What the armed fail-safe holds.
    struct Context {
        /// When the current arming runs out (clock milliseconds).
        var expiresAt: UInt64
        /// The hard limit from the first arming (MaxCumulativeFailsafeSeconds).
        var cumulativeDeadline: UInt64
        /// The fabric the fail-safe belongs to; nil while armed over PASE without a fabric.
        var fabricIndex: UInt8?
        /// The session that armed it (PASE), whose end also expires it.
        var armingSession: SessionID?
        /// RCAC from AddTrustedRootCertificate, not yet referenced by a committed fabric.
        var pendingRoot: [UInt8]?
        /// The operational key generated for CSRRequest, and the session it was requested on.
        var csrKey: P256PrivateKey?
        var csrSession: SessionID?
        /// Fabric whose NOC UpdateNOC replaced, with its previous record, for rollback.
        var updatedFabric: DeviceFabric?

        /// When it expires: the earlier of the arming's end and the cumulative limit.
        var deadline: UInt64 { min(expiresAt, cumulativeDeadline) }
    }

    /// GeneralCommissioningStatus codes.
    enum Status: UInt8 {
        case ok = 0
        case valueOutsideRange = 1
        case invalidAuthentication = 2
        case noFailSafe = 3
        case busyWithOtherAdmin = 4
    }

    let fabrics: FabricTable
    let clock: any MatterClock
    /// BasicCommissioningInfo.FailSafeExpiryLengthSeconds (PASE arms for this long).
    let expirySeconds: UInt16
    /// BasicCommissioningInfo.MaxCumulativeFailsafeSeconds.
    let maxCumulativeSeconds: UInt16
    let log = Logger(label: "device")
    /// The armed fail-safe; nil when disarmed.
    var context: Context?
    /// GeneralCommissioning.Breadcrumb.
    var breadcrumb: UInt64 = 0
    /// The expiry timer, on the node's scheduler (set when the data model exists).
    var timer: DataModelTimer?
    /// After an expiry rolled the fabric table back: the context that expired (node-level effects).
    var onExpired: ((Context, _ addedFabric: UInt8?) -> Void)?
    /// After a commit: the fabrics written.
    var onCommitted: (() -> Void)?

    init(fabrics: FabricTable, clock: any MatterClock, expirySeconds: UInt16, maxCumulativeSeconds: UInt16) {
        self.fabrics = fabrics
        self.clock = clock
        self.expirySeconds = expirySeconds
        self.maxCumulativeSeconds = maxCumulativeSeconds
    }

    var isArmed: Bool { context != nil }

    /// The fabric AddNOC added under it.
    var addedFabric: UInt8? { context == nil ? nil : fabrics.pending }

    /// True when the fail-safe belongs to `fabricIndex` (its own, or the one AddNOC added).
    func belongs(to fabricIndex: UInt8) -> Bool {
        guard let context else { return false }
        return context.fabricIndex == fabricIndex || (addedFabric != nil && addedFabric == fabricIndex)
    }

    /// How long it still runs (ms, at least 1), nil when disarmed.
    var remainingMilliseconds: UInt64? {
        guard let context else { return nil }
        let now = clock.nowMilliseconds()
        return max(context.deadline > now ? context.deadline - now : 0, 1)
    }

    /// Arms or re-arms for `seconds` (0 disarms, which expires it) on behalf of `fabricIndex` (nil: a
    /// PASE session without a fabric, `session`). `otherAdminCommissioning`: a window is open and a
    /// PASE session up, so a first arming over CASE is another administrator's.
    func arm(seconds: UInt16, fabricIndex: UInt8?, session: SessionID?, otherAdminCommissioning: Bool) -> Status {
        let now = clock.nowMilliseconds()
        if var current = context {
            let sameContext =
                current.fabricIndex == fabricIndex || (current.fabricIndex == nil && session == current.armingSession)
                || (addedFabric != nil && addedFabric == fabricIndex)
            guard sameContext else { return .busyWithOtherAdmin }
            if seconds == 0 {
                expire(reason: "disarmed by ArmFailSafe(0)")
                return .ok
            }
            current.expiresAt = min(now + UInt64(seconds) * 1000, current.cumulativeDeadline)
            context = current
        } else {
            if seconds == 0 { return .ok }
            // Not armed, a window open, and the request over CASE: another admin is commissioning.
            if otherAdminCommissioning, fabricIndex != nil { return .busyWithOtherAdmin }
            context = Context(
                expiresAt: now + UInt64(seconds) * 1000,
                cumulativeDeadline: now + UInt64(maxCumulativeSeconds) * 1000, fabricIndex: fabricIndex,
                armingSession: session)
        }
        rearm()
        return .ok
    }

    /// AddNOC added `index`: the fail-safe now belongs to it (spec 11.10.7.2.1): only that fabric (its
    /// CASE sessions, or the PASE session bound to it) may re-arm, disarm or complete it.
    func bind(addedFabric index: UInt8) {
        fabrics.pending = index
        context?.fabricIndex = index
        context?.csrKey = nil
    }

    /// Rolls back everything added under the fail-safe (spec 11.10.7.2.2, in order).
    func expire(reason: String) {
        guard let expired = context else { return }
        let added = addedFabric
        context = nil
        log.notice("fail-safe expired (\(reason)): rolling back")
        if let previous = expired.updatedFabric { fabrics[previous.index] = previous }
        if let added { fabrics.discard(added) }
        fabrics.pending = nil
        breadcrumb = 0
        rearm()
        onExpired?(expired, added)
    }

    /// CommissioningComplete: commit and disarm (spec 11.10.7.6). The fabric the fail-safe added (or
    /// the one UpdateNOC changed) is written in one transaction first: if that write fails, nothing is
    /// committed, the fail-safe stays armed (its expiry rolls the changes back) and this returns false.
    func commit() -> Bool {
        guard let committing = context else { return false }
        let written = [addedFabric, committing.updatedFabric?.index].compactMap { $0 }
        if !written.isEmpty, !fabrics.persist(fabrics: written) { return false }
        fabrics.pending = nil
        context = nil
        breadcrumb = 0
        rearm()
        onCommitted?()
        return true
    }

    // MARK: Timer

    /// Points the timer at the expiry (or stops it).
    func rearm() {
        guard let timer else { return }
        guard let deadline = context?.deadline else {
            timer.cancel()
            return
        }
        let now = clock.nowMilliseconds()
        timer.start(after: deadline > now ? deadline - now : 0)
    }

    /// The timer fired.
    func timerFired() {
        if let context, clock.nowMilliseconds() >= context.deadline {
            expire(reason: "timer")
        } else {
            rearm()
        }
    }
}
