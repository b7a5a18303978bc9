import MatterCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An advisory lock (`flock`) on a file beside the store, held by the process whose commissioning
/// owns an interrupted-commissioning record, for as long as that commissioning runs. The kernel
/// drops it when the process dies, even by SIGKILL: a record whose lock can be taken belongs to no
/// live commissioning, so resuming it cannot race the commissioning itself (several processes may
/// share one store). A store in memory has no file beside it and needs no lock.
final class CommissioningLock: Sendable {
    private let path: String?
    private let descriptor: Mutex<Int32>

    private init(path: String?, descriptor: Int32) {
        self.path = path
        self.descriptor = Mutex(descriptor)
    }

    /// Takes the lock of `nodeID`'s record in the store file at `storePath`; nil when a live
    /// commissioning holds it. A lock file that cannot be opened (a read-only directory) is no lock.
    static func acquire(storePath: String, nodeID: UInt64) -> CommissioningLock? {
        guard storePath != ":memory:", !storePath.isEmpty else { return CommissioningLock(path: nil, descriptor: -1) }
        let path = storePath + ".commissioning-" + Hex.encodeNodeID(nodeID) + ".lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return CommissioningLock(path: nil, descriptor: -1) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return CommissioningLock(path: path, descriptor: fd)
    }

    /// Removes the lock file and releases the lock (idempotent).
    func release() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            if let path { unlink(path) }
            // Unlock, not only close: a child process between fork and exec shares the open file
            // description and would keep the lock until it execs.
            _ = flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }

    deinit { release() }
}

extension Hex {
    /// A node ID as 16 hexadecimal digits, for file names.
    static func encodeNodeID(_ nodeID: UInt64) -> String { encode(nodeID.bigEndianBytes) }
}
