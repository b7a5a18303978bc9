/// Why the store could not be read or written.
public enum StorageError: Error, Equatable, Sendable {
    /// Placeholder until the SQLite store lands.
    case notImplemented
}
