public import MatterCore

#if canImport(Glibc)
    import Glibc
#endif

/// Why the store could not be read or written. Every case prints as one line a user can act on.
public enum StorageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// SQLite refused an operation. `code` is SQLite's extended result code (the primary code is
    /// `code & 0xFF`), `message` SQLite's own text, `operation` what the store was doing (with the
    /// file's path).
    case sqlite(code: Int32, message: String, operation: String)
    /// A file-system call failed while creating the store's directory or file.
    case fileSystem(errno: Int32, message: String, operation: String)
    /// The file's schema (`PRAGMA user_version`) is newer than this build understands.
    case schemaTooNew(path: String, found: Int, supported: Int)
    /// A stored value has the wrong type or is out of range (the file was edited or is damaged).
    case invalidStoredValue(String)
    /// An argument the store cannot accept (an empty name, a non-operational node ID...).
    case invalidArgument(String)
    /// The controller store holds no fabric yet.
    case noFabric
    /// The controller store already holds a fabric.
    case fabricAlreadyExists
    /// No node with this ID is stored.
    case noSuchNode(NodeID)
    /// A node with this ID is already stored.
    case nodeAlreadyExists(NodeID)
    /// The name is already taken by a node or a group (names are compared with full Unicode case folding, and a
    /// group name stands where a node name would, so the two share one name space).
    case nameAlreadyUsed(String)
    /// No group with this name is stored.
    case noSuchGroup(String)
    /// Every operational node ID after the fabric's counter is taken.
    case nodeIDsExhausted
    /// Another process holds the store file (``StoreOwnership``); `holder` is what its lock file says.
    case storeInUse(path: String, holder: String)
    /// The store's file was deleted, or replaced by another file, while this process had it open:
    /// what this process wrote since went to the old file.
    case storeFileChanged(path: String, deleted: Bool)
    /// The store's file exists but is empty (0 bytes): not a fresh store (a missing file is), so it
    /// is not silently initialised over whatever emptied it.
    case emptyStoreFile(path: String)
    /// The store's file is damaged or is not a SQLite database: SQLite said so (SQLITE_CORRUPT,
    /// SQLITE_NOTADB and their extended codes, in `code`) or `PRAGMA quick_check` at open found a
    /// fault (`detail`). Nothing is written into it; the CLI exits 9.
    case storeDamaged(path: String, code: Int32, detail: String)
    /// A file of the store (the store, its lock) is not one this process may open as its own: a
    /// symbolic link, a file with several hard links, not a regular file (`reason` says which).
    case refusedFile(path: String, reason: String)

    /// SQLite's primary result code for a `.sqlite` error (`SQLITE_BUSY` = 5, `SQLITE_CORRUPT` = 11,
    /// `SQLITE_NOTADB` = 26...), nil for the other cases.
    public var sqlitePrimaryCode: Int32? {
        switch self {
        case .sqlite(let code, _, _), .storeDamaged(_, let code, _): return code & 0xFF
        default: return nil
        }
    }

    /// SQLite's primary codes that say the file is damaged or not a database: SQLITE_CORRUPT (11),
    /// SQLITE_NOTADB (26); with their extended codes (SQLITE_CORRUPT_VTAB, _SEQUENCE, _INDEX).
    static let damagedPrimaryCodes: Set<Int32> = [11, 26]

    /// An error from SQLite for the store at `path`: ``storeDamaged(path:code:detail:)`` for a
    /// corruption code, ``sqlite(code:message:operation:)`` otherwise.
    static func fromSQLite(code: Int32, message: String, operation: String, path: String) -> StorageError {
        guard damagedPrimaryCodes.contains(code & 0xFF), path != ":memory:" else {
            return .sqlite(code: code, message: message, operation: operation)
        }
        return .storeDamaged(path: path, code: code, detail: "\(message), while \(operation)")
    }

    /// A refusal or failure of ``OwnedFile`` as a storage error.
    init(_ error: OwnedFileError) {
        switch error {
        case .symbolicLink(let path), .hardLinked(let path, _), .notRegularFile(let path):
            self = .refusedFile(path: path, reason: error.description)
        case .system(let errno, let operation):
            self = .fileSystem(errno: errno, message: String(cString: strerror(errno)), operation: operation)
        }
    }

    /// The `errno N` a message from `SQLiteHandle` ends with, or 0.
    static func errno(in message: String) -> Int32 {
        let marker = "; errno "
        guard let semicolon = message.lastIndex(of: ";"), message[semicolon...].hasPrefix(marker) else { return 0 }
        return Int32(message[semicolon...].dropFirst(marker.count).prefix { $0.isNumber }) ?? 0
    }

    public var description: String {
        switch self {
        case .sqlite(let code, let message, let operation):
            let (what, advice) = SQLiteResultCode.meaning(code, errno: Self.errno(in: message))
            let lead = what.isEmpty ? message : what
            let detail = what.isEmpty ? "SQLite code \(code)" : "SQLite: \(message), code \(code)"
            return "storage error while \(operation): \(lead) (\(detail))" + (advice.isEmpty ? "" : "; \(advice)")
        case .fileSystem(let errno, let message, let operation):
            return "storage error while \(operation): \(message) (errno \(errno))"
        case .schemaTooNew(let path, let found, let supported):
            return "\(path) has schema version \(found) but this build understands up to \(supported): "
                + "use a newer matter-emu or another state directory"
        case .invalidStoredValue(let why): return "invalid stored value: \(why)"
        case .invalidArgument(let why): return "invalid argument: \(why)"
        case .storeInUse(let path, let holder):
            return "\(path) is in use by another process (\(holder)): stop it first, or give this one its own file"
        case .noFabric: return "no fabric stored yet (commission a first device, or create the fabric)"
        case .fabricAlreadyExists: return "a fabric is already stored"
        case .noSuchNode(let node): return "no node \(node) (0d\(node.rawValue)) in the store"
        case .nodeAlreadyExists(let node): return "node \(node) (0d\(node.rawValue)) is already stored"
        case .nameAlreadyUsed(let name): return "the name \"\(name)\" is already used by a node or a group"
        case .noSuchGroup(let name): return "no group named \"\(name)\""
        case .nodeIDsExhausted: return "no operational node ID left to allocate on this fabric"
        case .storeFileChanged(let path, let deleted):
            return "the store \(path) was \(deleted ? "deleted" : "replaced by another file") while this process "
                + "had it open (what it wrote since is lost)"
        case .storeDamaged(let path, let code, let detail):
            let what =
                code & 0xFF == 26
                ? "is not a SQLite database" : "is damaged (SQLite: database disk image is malformed)"
            return "store damaged: \(path) \(what) [\(detail), code \(code)]; nothing was written to it: move it "
                + "aside to start afresh, or restore it from a copy"
        case .refusedFile(_, let reason):
            return "refused: \(reason)"
        case .emptyStoreFile(let path):
            return "the store \(path) is an empty file, not a SQLite store: remove it to start afresh "
                + "(a missing file is created), or restore it from a copy"
        }
    }
}
