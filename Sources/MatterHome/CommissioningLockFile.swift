import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An advisory lock (`flock`) on a file beside the controller's store. A home holds it exclusively
/// from ``Structure/prepareForMatterCommissioning()`` until the commissioning is completed or
/// cancelled: one commissioning session at a time per state directory, across processes. The CLI's
/// `pairing` commands hold it shared while they commission (they may run side by side, but not while
/// a home has prepared, and a home cannot prepare while one runs). The kernel drops it when the
/// process dies. While held exclusively, the file holds the owner's process ID, for the message others
/// get. Released with an explicit unlock, not by closing alone (see ``release()``).
package final class CommissioningLockFile: Sendable {
    private let descriptor: Mutex<Int32>

    private init(descriptor: Int32) { self.descriptor = Mutex(descriptor) }

    /// The lock file of the state directory whose store is at `storePath`.
    package static func path(storePath: String) -> String { storePath + ".home-commissioning.lock" }

    /// Takes the lock at `path` shared (a CLI commissioning).
    /// - Throws: `commissioning` while a home holds it exclusively, `storage` when the file cannot be
    ///   opened.
    package static func acquireShared(path: String) throws(HomeError) -> CommissioningLockFile {
        let fd = try open(path)
        guard flock(fd, LOCK_SH | LOCK_NB) == 0 else {
            let holder = holder(fd)
            close(fd)
            throw HomeError(
                .commissioning,
                "a Home API commissioning session holds this state directory (process \(holder)): "
                    + "wait for it to complete or cancel it")
        }
        return CommissioningLockFile(descriptor: fd)
    }

    private static func open(_ path: String) throws(HomeError) -> Int32 {
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw HomeError(.storage, "cannot open the commissioning lock \(path): \(reason)")
        }
        return fd
    }

    /// The process ID the exclusive holder wrote, or a description of who else it may be.
    private static func holder(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : "unknown: a matter-emu pairing?"
    }

    /// Takes the lock at `path`.
    /// - Throws: `commissioning` when another commissioning holds it, `storage` when the file cannot
    ///   be opened.
    static func acquire(path: String) throws(HomeError) -> CommissioningLockFile {
        let fd = try open(path)
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = holder(fd)
            close(fd)
            throw HomeError(
                .commissioning,
                "another commissioning is in progress on this state directory (process \(holder)); "
                    + "wait for it to complete or cancel it")
        }
        let pid = Array("\(getpid())".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        return CommissioningLockFile(descriptor: fd)
    }

    /// Releases the lock (idempotent). The file stays: removing it could let two processes lock
    /// different files of the same name.
    package func release() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            _ = ftruncate(fd, 0)
            // Unlock before closing: a child process started between fork and exec shares this open
            // file description (and so the lock) until it execs; closing only our descriptor would
            // leave the lock held by the child, and our own next prepare refused.
            _ = flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }

    deinit { release() }
}
