import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One process's exclusive claim on a store file: an advisory lock (`flock`) on `<path>.lock`, which
/// names its holder (pid and description), so that a second process asking for the same file is
/// refused with a message saying who has it. The kernel drops the lock when the process ends, even by
/// SIGKILL. Inside one process, claims of the same file share one lock (a fleet's devices share its
/// file; a device stopped and started again claims it again); the lock goes when the last is released.
/// Release unlocks explicitly (`LOCK_UN`) before closing: a child process started between fork and
/// exec shares the open file description, and closing alone would leave the lock held by it.
///
/// The lock file stays on disk (as SQLite's `-wal` and `-shm` do): unlinking it on release would let
/// a process that opened the old file and one that created a new one both hold "the" lock.
public final class StoreOwnership: Sendable {
    private struct FileKey: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    private struct Claim {
        let descriptor: Int32
        var count: Int
    }

    /// This process's claims, by the lock file's identity.
    private static let claims = Mutex<[FileKey: Claim]>([:])

    private let key: FileKey
    private let released = Mutex(false)

    private init(key: FileKey) { self.key = key }

    /// Claims the store file at `path` for this process; `holder` says who claims it (for the message
    /// another process gets, e.g. "matter-emu device on port 5540"). Throws
    /// ``StorageError/storeInUse(path:holder:)`` when another process holds it.
    public static func claim(path: String, holder: String) throws(StorageError) -> StoreOwnership {
        try StorageFile.createDirectories(StorageFile.parent(of: path))
        let lockPath = path + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, StorageFile.fileMode)
        guard descriptor >= 0 else { throw StorageFile.lastError("creating the lock file \(lockPath)") }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = StorageFile.lastError("reading the lock file \(lockPath)")
            close(descriptor)
            throw error
        }
        let key = FileKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        return try claims.withLock { claims throws(StorageError) -> StoreOwnership in
            if var claim = claims[key] {
                close(descriptor)  // this process holds it already, through the first descriptor
                claim.count += 1
                claims[key] = claim
                return StoreOwnership(key: key)
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let code = errno
                let other = readHolder(descriptor)
                close(descriptor)
                guard code == EWOULDBLOCK else {
                    throw .fileSystem(
                        errno: code, message: String(cString: strerror(code)), operation: "locking \(lockPath)")
                }
                throw .storeInUse(path: path, holder: other)
            }
            let text = Array("pid \(getpid()): \(holder)\n".utf8)
            _ = ftruncate(descriptor, 0)
            _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            claims[key] = Claim(descriptor: descriptor, count: 1)
            return StoreOwnership(key: key)
        }
    }

    /// The holder a lock file names, or "another process" when it names none.
    private static func readHolder(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return "another process" }
        let text =
            String(decoding: buffer[0..<count], as: UTF8.self)
            .split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let printable = String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })
        return printable.isEmpty ? "another process" : printable
    }

    /// Gives up this claim (idempotent); the lock goes with the process's last claim of the file.
    public func release() {
        guard
            released.withLock({ released in
                defer { released = true }
                return !released
            })
        else { return }
        Self.claims.withLock { claims in
            guard var claim = claims[key] else { return }
            claim.count -= 1
            if claim.count > 0 {
                claims[key] = claim
                return
            }
            claims[key] = nil
            _ = ftruncate(claim.descriptor, 0)
            // Unlock explicitly, then close: a child process started between fork and exec shares
            // this open file description, and closing alone would leave the lock held by the child
            // (until it execs) against this process's own next claim and everyone else's.
            _ = flock(claim.descriptor, LOCK_UN)
            close(claim.descriptor)
        }
    }

    deinit { release() }
}
