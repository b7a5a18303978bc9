import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive advisory lock (`flock`) on a file beside the controller's store, held from
/// ``Structure/prepareForMatterCommissioning()`` until the commissioning is completed or cancelled:
/// one commissioning at a time per state directory, across processes. The kernel drops it when the
/// process dies. The file holds the owner's process ID, for the message others get.
final class CommissioningLockFile: Sendable {
    private let descriptor: Mutex<Int32>

    private init(descriptor: Int32) { self.descriptor = Mutex(descriptor) }

    /// Takes the lock at `path`.
    /// - Throws: `commissioning` when another commissioning holds it, `storage` when the file cannot
    ///   be opened.
    static func acquire(path: String) throws(HomeError) -> CommissioningLockFile {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw HomeError(.storage, "cannot open the commissioning lock \(path): \(reason)")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            close(fd)
            let holder = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : "unknown"
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
    func release() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            _ = ftruncate(fd, 0)
            close(fd)
            fd = -1
        }
    }

    deinit { release() }
}
