/// Why a TLV encoding could not be read or written.
public enum TLVError: Error, Equatable, Sendable {
    /// Placeholder until the TLV codec lands.
    case notImplemented
}
