/// What the quick start's set-up can fail with.
public enum QuickStartError: Error, CustomStringConvertible {
    /// The home has no structure (a home always has one; a broken state directory).
    case noStructure
    /// No commissioned device has this name.
    case noDevice(String)

    public var description: String {
        switch self {
        case .noStructure: "the home has no structure"
        case .noDevice(let name): "no commissioned device is named \"\(name)\""
        }
    }
}
