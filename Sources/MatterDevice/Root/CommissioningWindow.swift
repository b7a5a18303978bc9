import MatterCore

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
