/// How a device expects to be put into commissioning mode (2-bit field of the onboarding payload).
public enum CommissioningFlow: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The device is commissionable as soon as it is powered (value 0).
    case standard = 0
    /// The user must act on the device (press a button...) before commissioning (value 1).
    case userActionRequired = 1
    /// Vendor-specific steps, described by the vendor (value 2). Long manual codes parse to this flow.
    case custom = 2
    /// Reserved value 3: decoded as is, rejected by validation.
    case reserved = 3

    public var description: String {
        switch self {
        case .standard: "standard"
        case .userActionRequired: "user action required"
        case .custom: "custom"
        case .reserved: "reserved (3)"
        }
    }
}
