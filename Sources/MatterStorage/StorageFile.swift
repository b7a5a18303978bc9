import MatterCore

#if canImport(Glibc)
    import Glibc
#endif

/// File-system preparation for a store file: parent directories are created with mode 0700 and the
/// file itself is created with mode 0600 before SQLite opens it, because it holds keys (SQLite gives
/// its `-wal` and `-shm` side files the main file's mode); an existing file with another mode is
/// tightened once SQLite has opened it as a sound store, never before (it may not be ours).
enum StorageFile {
    static let directoryMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600

    /// What `prepare` found or made: the file's identity, its mode, and whether this call created it.
    struct Prepared {
        let identity: FileIdentity
        let mode: mode_t
        let created: Bool
    }

    /// Creates `path`'s parent directories if missing, then the file if missing (mode 0600, with
    /// `O_EXCL`). An existing file is only looked at (`lstat`), never opened or changed here: a
    /// symbolic link, a file with several hard links or anything but a regular file is refused
    /// (``StorageError/refusedFile(path:reason:)``), so nothing reached through a link is touched.
    /// Its mode is tightened to 0600 only once SQLite has opened it as a sound store.
    static func prepare(path: String) throws(StorageError) -> Prepared {
        guard !path.isEmpty else { throw .invalidArgument("the store path is empty") }
        try createDirectories(parent(of: path))
        do throws(OwnedFileError) {
            if let existing = try OwnedFile.inspect(path) {
                return Prepared(identity: existing.identity, mode: existing.mode, created: false)
            }
            let file = try OwnedFile.open(path, access: .readWrite, create: true, mode: fileMode)
            defer { file.close() }
            return Prepared(identity: file.identity, mode: fileMode, created: file.created)
        } catch {
            throw StorageError(error)
        }
    }

    /// Sets mode 0600 on the store at `path` (still the file `prepared` found) and on its `-wal`
    /// and `-shm` files, where they have another mode.
    static func tightenMode(path: String, prepared: Prepared) {
        if prepared.mode != fileMode { _ = OwnedFile.setMode(fileMode, path: path, ifStill: prepared.identity) }
        for side in [path + "-wal", path + "-shm"] {
            guard let found = try? OwnedFile.inspect(side), found.mode != fileMode else { continue }
            _ = OwnedFile.setMode(fileMode, path: side, ifStill: found.identity)
        }
    }

    /// The directory part of `path` ("." for a bare file name, "/" for a file at the root).
    static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let head = trimmed[..<slash]
        return head.isEmpty ? "/" : String(head)
    }

    /// `mkdir -p` with mode 0700 for each directory it creates; existing directories are left alone.
    static func createDirectories(_ directory: String) throws(StorageError) {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw .fileSystem(errno: ENOTDIR, message: "not a directory", operation: "creating \(directory)")
            }
            return
        }
        let parent = parent(of: directory)
        if parent != directory { try createDirectories(parent) }
        if mkdir(directory, directoryMode) != 0, errno != EEXIST {
            throw lastError("creating directory \(directory)")
        }
    }

    /// The current `errno` as a `StorageError` (read before anything else can change it).
    static func lastError(_ operation: String) -> StorageError {
        let code = errno
        return .fileSystem(errno: code, message: String(cString: strerror(code)), operation: operation)
    }
}
