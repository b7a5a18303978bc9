import MatterCore
import MatterCrypto
import MatterTransport

/// The commissioning fail-safe (spec 11.10.7.2, commissioning-flow.md §3): what was added under it,
/// so that expiry rolls all of it back and CommissioningComplete commits it.
struct FailSafe {
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
    /// Fabric added by AddNOC under this fail-safe (pending until CommissioningComplete).
    var addedFabric: UInt8?
    /// Fabric whose NOC UpdateNOC replaced, with its previous record, for rollback.
    var updatedFabric: DeviceFabric?
}

/// A commissioning window: how a PASE session may be opened, and until when.
enum CommissioningWindow: Equatable {
    case closed
    /// Basic window: the device's own passcode (WindowStatus 2).
    case basic(deadline: UInt64?)
    /// Enhanced window: a verifier an administrator sent (WindowStatus 1).
    case enhanced(deadline: UInt64, discriminator: UInt16, adminFabric: UInt8, adminVendor: UInt16)

    var isOpen: Bool { self != .closed }

    /// AdministratorCommissioning.WindowStatus.
    var status: UInt8 {
        switch self {
        case .closed: 0
        case .enhanced: 1
        case .basic: 2
        }
    }
}
