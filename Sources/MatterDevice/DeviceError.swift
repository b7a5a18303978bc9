/// Why a virtual device could not start or run.
public enum DeviceError: Error, Equatable, Sendable {
    /// Placeholder until the device lands.
    case notImplemented
}
