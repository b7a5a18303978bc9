import MatterCore
import MatterDataModel
import MatterSecureChannel
import MatterTransport

/// The commissioning windows of the node (spec 5.4.2): which one is open (basic with the device's own
/// passcode, or enhanced with an administrator's verifier) until when, the PASE responder's credentials
/// that go with it, and the PASE session in use (one at a time, as SDK devices do). Shared by
/// AdministratorCommissioning, GeneralCommissioning and OperationalCredentials; its timer runs on the
/// node's scheduler. Confined to the node's queue.
final class CommissioningWindowManager {
    let pase: PASEResponder
    let clock: any MatterClock
    /// The device's own passcode verifier, for basic windows.
    let basicCredentials: PASEResponder.Credentials
    /// The discriminator of the onboarding payload.
    let discriminator: UInt16
    let log = Logger(label: "device")
    private(set) var window: CommissioningWindow = .closed
    /// The PASE session in use, if any.
    var paseSession: SessionID?
    /// The timeout timer, on the node's scheduler (set when the data model exists).
    var timer: DataModelTimer?
    /// Called when a window opened or closed (advertising, AdministratorCommissioning reports).
    var onChange: (() -> Void)?

    init(
        pase: PASEResponder, clock: any MatterClock, basicCredentials: PASEResponder.Credentials, discriminator: UInt16
    ) {
        self.pase = pase
        self.clock = clock
        self.basicCredentials = basicCredentials
        self.discriminator = discriminator
    }

    var isOpen: Bool { window.isOpen }

    /// The discriminator commissionable advertising uses now.
    var advertisedDiscriminator: UInt16 {
        if case .enhanced(_, let discriminator, _, _) = window { return discriminator }
        return discriminator
    }

    /// A window is open and a PASE session up: a first fail-safe armed over CASE is another
    /// administrator's.
    var isCommissioningOverPASE: Bool { window.isOpen && paseSession != nil }

    /// Opens the basic window (the device's own passcode); at start when no fabric exists.
    func openBasic(timeoutSeconds: UInt16?) {
        window = .basic(deadline: timeoutSeconds.map { clock.nowMilliseconds() + UInt64($0) * 1000 })
        pase.credentials = basicCredentials
        changed()
    }

    /// Opens an enhanced window with an administrator's verifier.
    func openEnhanced(
        timeoutSeconds: UInt16, credentials: PASEResponder.Credentials, discriminator: UInt16, adminFabric: UInt8,
        adminVendor: UInt16
    ) {
        window = .enhanced(
            deadline: clock.nowMilliseconds() + UInt64(timeoutSeconds) * 1000, discriminator: discriminator,
            adminFabric: adminFabric, adminVendor: adminVendor)
        pase.credentials = credentials
        log.notice("enhanced commissioning window open for \(timeoutSeconds) s (discriminator \(discriminator))")
        changed()
    }

    func close() {
        guard window.isOpen else { return }
        window = .closed
        pase.credentials = nil
        changed()
    }

    private func changed() {
        rearm()
        onChange?()
    }

    // MARK: Timer

    private var deadline: UInt64? {
        switch window {
        case .basic(let deadline?): deadline
        case .enhanced(let deadline, _, _, _): deadline
        default: nil
        }
    }

    /// Points the timer at the window's timeout (or stops it).
    func rearm() {
        guard let timer else { return }
        guard let deadline else {
            timer.cancel()
            return
        }
        let now = clock.nowMilliseconds()
        timer.start(after: deadline > now ? deadline - now : 0)
    }

    /// The timer fired.
    func timerFired() {
        if let deadline, clock.nowMilliseconds() >= deadline {
            close()
        } else {
            rearm()
        }
    }
}
