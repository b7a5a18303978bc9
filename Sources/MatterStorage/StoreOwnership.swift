import MatterCore
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
package final class StoreOwnership: Sendable {
    private struct Claim {
        let file: OwnedFile
        var count: Int
    }

    /// This process's claims, by the lock file's identity (device and inode, not its path).
    private static let claims = Mutex<[FileIdentity: Claim]>([:])

    private let key: FileIdentity
    private let released = Mutex(false)

    private init(key: FileIdentity) { self.key = key }

    /// Claims the store file at `path` for this process; `holder` says who claims it (for the message
    /// another process gets, e.g. "matter-emu device on port 5540"). Throws
    /// ``StorageError/storeInUse(path:holder:)`` when another process holds it, and
    /// ``StorageError/refusedFile(path:reason:)`` when the store or its lock file is a symbolic link,
    /// has several hard links, or is not a regular file: another path could then name the same store
    /// and bypass the lock. Nothing is written through a refused file.
    package static func claim(path: String, holder: String) throws(StorageError) -> StoreOwnership {
        try StorageFile.createDirectories(StorageFile.parent(of: path))
        let lockPath = path + ".lock"
        let file: OwnedFile
        do throws(OwnedFileError) {
            _ = try OwnedFile.inspect(path)
            file = try OwnedFile.open(lockPath, access: .readWrite, create: true, mode: StorageFile.fileMode)
        } catch {
            throw StorageError(error)
        }
        let key = file.identity
        return try claims.withLock { claims throws(StorageError) -> StoreOwnership in
            if var claim = claims[key] {
                file.close()  // this process holds it already, through the first descriptor
                claim.count += 1
                claims[key] = claim
                return StoreOwnership(key: key)
            }
            let code = file.tryLock(exclusive: true)
            guard code == 0 else {
                let other = readHolder(file)
                file.close()
                guard code == EWOULDBLOCK else {
                    throw .fileSystem(
                        errno: code, message: String(cString: strerror(code)), operation: "locking \(lockPath)")
                }
                throw .storeInUse(path: path, holder: other)
            }
            file.replaceContents(with: Array("pid \(getpid()): \(holder)\n".utf8), ifOurs: isHolderRecord)
            claims[key] = Claim(file: file, count: 1)
            return StoreOwnership(key: key)
        }
    }

    /// Whether `bytes` (a lock file's contents) is empty or a holder record ("pid N: ..."): a lock
    /// file found with anything else in it is not rewritten.
    private static func isHolderRecord(_ bytes: [UInt8]) -> Bool {
        bytes.isEmpty || bytes.starts(with: Array("pid ".utf8))
    }

    /// The holder a lock file names, or "another process" when it names none.
    private static func readHolder(_ file: OwnedFile) -> String {
        let bytes = file.read(upTo: 256)
        guard !bytes.isEmpty else { return "another process" }
        let text =
            String(decoding: bytes, as: UTF8.self)
            .split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let printable = String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })
        return printable.isEmpty ? "another process" : printable
    }

    /// Gives up this claim (idempotent); the lock goes with the process's last claim of the file.
    package func release() {
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
            let ours = Array("pid \(getpid()):".utf8)
            claim.file.replaceContents(with: []) { $0.starts(with: ours) }
            // Unlocks explicitly, then closes: a child process started between fork and exec shares
            // this open file description, and closing alone would leave the lock held by the child
            // (until it execs) against this process's own next claim and everyone else's.
            claim.file.close()
        }
    }

    deinit { release() }
}
