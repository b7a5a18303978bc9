#if canImport(Glibc)
    import Glibc
#endif

/// File-system preparation for a store file: parent directories are created with mode 0700 and the
/// file itself is created (or tightened) to mode 0600 before SQLite opens it, because it holds keys.
/// SQLite gives its `-wal` and `-shm` side files the main file's mode.
enum StorageFile {
    static let directoryMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600

    /// Creates `path`'s parent directories if missing, then the file if missing, and sets its mode to
    /// 0600 if it is anything else.
    static func prepare(path: String) throws(StorageError) {
        guard !path.isEmpty else { throw .invalidArgument("the store path is empty") }
        try createDirectories(parent(of: path))
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, fileMode)
        guard fd >= 0 else { throw lastError("creating \(path)") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw lastError("reading the mode of \(path)") }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .fileSystem(errno: EINVAL, message: "not a regular file", operation: "opening \(path)")
        }
        if info.st_mode & 0o777 != fileMode {
            guard fchmod(fd, fileMode) == 0 else { throw lastError("setting mode 0600 on \(path)") }
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
