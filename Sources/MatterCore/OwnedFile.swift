import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Which file: its device and inode, the same through every path that names it.
package struct FileIdentity: Hashable, Sendable {
    package let device: UInt64
    package let inode: UInt64

    package init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}

/// Why one of the project's own files was refused or could not be opened. Each case names the path.
package enum OwnedFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path's last component is a symbolic link: the project does not write through links.
    case symbolicLink(path: String)
    /// The file has other names (hard links): another path reaches the same file.
    case hardLinked(path: String, links: Int)
    /// The path names a directory, FIFO, socket or device, not a regular file.
    case notRegularFile(path: String)
    /// A system call failed (`operation` names the path).
    case system(errno: Int32, operation: String)

    package var description: String {
        switch self {
        case .symbolicLink(let path):
            return "\(path) is a symbolic link: matter-emu opens only its own files there, never through a link "
                + "(give the real path, or remove the link)"
        case .hardLinked(let path, let links):
            return "\(path) has \(links) hard links: another path names the same file, so it is not matter-emu's "
                + "alone (give each process a file of its own)"
        case .notRegularFile(let path):
            return "\(path) is not a regular file"
        case .system(let errno, let operation):
            return "\(operation): \(String(cString: strerror(errno))) (errno \(errno))"
        }
    }
}

/// The one way the project opens its own files (stores, lock files, keys, configurations): the
/// directory is opened first and the file with `openat(..., O_NOFOLLOW)`, so a symbolic link put
/// where the file should be is refused, not followed; a directory, FIFO or device is refused without
/// blocking (`O_NONBLOCK`); a file with more than one hard link is refused (another name reaches it);
/// a file is created with `O_EXCL`, so ``created`` tells whether this process made it, and only a
/// file it made gets a mode set. Descriptors are close-on-exec, and ``close()`` unlocks before it
/// closes (a child between fork and exec shares the open file description and would keep a lock).
///
/// `Sendable`: the descriptor sits under a mutex.
package final class OwnedFile: Sendable {
    /// How the file is opened.
    package enum Access: Sendable {
        case read
        case readWrite
    }

    /// The path as given.
    package let path: String
    /// The file's device and inode.
    package let identity: FileIdentity
    /// Whether this open created the file.
    package let created: Bool
    private let descriptorBox: Mutex<Int32>

    private init(path: String, descriptor: Int32, identity: FileIdentity, created: Bool) {
        self.path = path
        self.identity = identity
        self.created = created
        descriptorBox = Mutex(descriptor)
    }

    /// Opens the regular file at `path` (creating it with `mode` when `create` and it is missing).
    /// - Throws: ``OwnedFileError`` naming the path: a symbolic link, more than one hard link, not a
    ///   regular file, or the system's error (ENOENT for a missing file without `create`).
    package static func open(
        _ path: String, access: Access = .readWrite, create: Bool = false, mode: UInt32 = 0o600
    ) throws(OwnedFileError) -> OwnedFile {
        let (directory, name) = split(path)
        guard !name.isEmpty, name != ".", name != ".." else { throw .notRegularFile(path: path) }
        let directoryDescriptor = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryDescriptor >= 0 else { throw lastError("opening the directory of \(path)") }
        defer { Glibc.close(directoryDescriptor) }
        let flags = (access == .read ? O_RDONLY : O_RDWR) | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK
        var created = false
        var descriptor: Int32 = -1
        if create {
            descriptor = openat(directoryDescriptor, name, flags | O_CREAT | O_EXCL, mode_t(mode))
            created = descriptor >= 0
            if descriptor < 0, errno != EEXIST { throw openError(path) }
        }
        if descriptor < 0 {
            descriptor = openat(directoryDescriptor, name, flags)
            guard descriptor >= 0 else { throw openError(path) }
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = lastError("reading \(path)")
            Glibc.close(descriptor)
            throw error
        }
        do throws(OwnedFileError) {
            try check(info, path: path)
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        if created, UInt32(info.st_mode & 0o7777) != mode { _ = fchmod(descriptor, mode_t(mode)) }
        let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        return OwnedFile(path: path, descriptor: descriptor, identity: identity, created: created)
    }

    /// What is at `path` now, without opening it (for files a library opens by path, such as SQLite's):
    /// nil when nothing is there; the same refusals as ``open(_:access:create:mode:)``.
    package static func inspect(_ path: String) throws(OwnedFileError) -> (identity: FileIdentity, mode: UInt32)? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw lastError("reading \(path)")
        }
        try check(info, path: path)
        return (FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)), UInt32(info.st_mode & 0o7777))
    }

    /// Sets the mode of the file at `path` if it is still the file `identity` names (and one of ours:
    /// a regular file with one link, not reached through a symbolic link); false otherwise. It opens
    /// the file with `O_PATH`, which takes no part in locks (closing it drops no `fcntl` lock another
    /// connection of this process holds on the file, as closing a real descriptor would).
    package static func setMode(_ mode: UInt32, path: String, ifStill identity: FileIdentity) -> Bool {
        let descriptor = Glibc.open(path, Self.openPath | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { Glibc.close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (try? check(info, path: path)) != nil,
            FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) == identity
        else { return false }
        return chmod("/proc/self/fd/\(descriptor)", mode_t(mode)) == 0
    }

    /// `O_PATH` (Linux), which the Glibc module does not export.
    private static let openPath: Int32 = 0o10_000_000

    private static func check(_ info: stat, path: String) throws(OwnedFileError) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFLNK: throw .symbolicLink(path: path)
        default: throw .notRegularFile(path: path)
        }
        guard info.st_nlink <= 1 else { throw .hardLinked(path: path, links: Int(info.st_nlink)) }
    }

    /// The descriptor (-1 once closed). It stays this object's: do not close it.
    package var descriptor: Int32 { descriptorBox.withLock { $0 } }

    /// Takes an advisory `flock` without waiting: 0, or the `errno` (EWOULDBLOCK when held elsewhere).
    package func tryLock(exclusive: Bool) -> Int32 {
        descriptorBox.withLock { descriptor in
            flock(descriptor, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 ? 0 : errno
        }
    }

    /// Up to `limit` bytes from the start of the file.
    package func read(upTo limit: Int) -> [UInt8] {
        descriptorBox.withLock { descriptor in
            var buffer = [UInt8](repeating: 0, count: limit)
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            return count > 0 ? Array(buffer[0..<count]) : []
        }
    }

    /// Replaces the file's contents with `bytes` when this process created it, or when what it holds
    /// now `isOurs` says is ours (a lock file's record): a file of someone else's is never truncated.
    /// Returns whether it wrote.
    @discardableResult
    package func replaceContents(with bytes: [UInt8], ifOurs isOurs: ([UInt8]) -> Bool) -> Bool {
        guard created || isOurs(read(upTo: 4096)) else { return false }
        return descriptorBox.withLock { descriptor in
            guard ftruncate(descriptor, 0) == 0 else { return false }
            guard !bytes.isEmpty else { return true }
            return bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) } == bytes.count
        }
    }

    /// Unlocks and closes (idempotent). The explicit unlock matters: a child process between fork and
    /// exec shares the open file description, and closing alone would leave a lock held by it.
    package func close() {
        descriptorBox.withLock { descriptor in
            guard descriptor >= 0 else { return }
            _ = flock(descriptor, LOCK_UN)
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    deinit { close() }

    /// `path`'s directory ("." for a bare name) and last component.
    package static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    private static func openError(_ path: String) -> OwnedFileError {
        let code = errno
        // O_NOFOLLOW on a symbolic link fails with ELOOP.
        if code == ELOOP { return .symbolicLink(path: path) }
        return .system(errno: code, operation: "opening \(path)")
    }

    private static func lastError(_ operation: String) -> OwnedFileError {
        .system(errno: errno, operation: operation)
    }
}
