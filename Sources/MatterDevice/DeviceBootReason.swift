/// Why the device booted: GeneralDiagnostics BootReasonEnum (spec 11.12.5.3), reported in the
/// BootReason attribute and event.
public enum DeviceBootReason: UInt8, Sendable, CaseIterable {
    case unspecified = 0
    /// A process start: the device was switched on.
    case powerOnReboot = 1
    case brownOutReset = 2
    case softwareWatchdogReset = 3
    case hardwareWatchdogReset = 4
    case softwareUpdateCompleted = 5
    /// A restart the device asked for (the control plane's `reboot`, a factory reset).
    case softwareReset = 6

    /// The enum's spec name (`SoftwareReset`); the connectedhomeip all-clusters app's pipe commands
    /// use these names.
    public var name: String {
        switch self {
        case .unspecified: "Unspecified"
        case .powerOnReboot: "PowerOnReboot"
        case .brownOutReset: "BrownOutReset"
        case .softwareWatchdogReset: "SoftwareWatchdogReset"
        case .hardwareWatchdogReset: "HardwareWatchdogReset"
        case .softwareUpdateCompleted: "SoftwareUpdateCompleted"
        case .softwareReset: "SoftwareReset"
        }
    }

    /// The reason named `name` (spec name, any letter case), or by number.
    public init?(name: String) {
        if let number = UInt8(name), let reason = DeviceBootReason(rawValue: number) {
            self = reason
            return
        }
        guard let reason = Self.allCases.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            return nil
        }
        self = reason
    }
}
