public import MatterTransport

/// Why a virtual device could not start or keep its state.
public enum DeviceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A configuration value is out of range or inconsistent.
    case invalidConfiguration(String)
    /// Stored state could not be read or written.
    case storage(String)
    /// The device's attestation credentials (DAC, PAI, CD) could not be loaded.
    case attestation(String)
    /// The UDP port could not be bound, or another start-up step failed.
    case startup(String)
    /// The process may not open enough file descriptors for the devices asked for (a fleet checks
    /// this before it starts any device).
    case descriptorLimit(DescriptorLimitError)

    public var description: String {
        switch self {
        case .invalidConfiguration(let why): "invalid device configuration: \(why)"
        case .storage(let why): "device storage: \(why)"
        case .attestation(let why): "device attestation credentials: \(why)"
        case .startup(let why): "device start-up failed: \(why)"
        case .descriptorLimit(let why): "not starting the devices: \(why)"
        }
    }
}
