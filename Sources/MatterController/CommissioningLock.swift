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
    private let file: OwnedFile?

    private init(path: String?, file: OwnedFile?) {
        self.path = path
        self.file = file
    }

    /// Takes the lock of `nodeID`'s record in the store file at `storePath`; nil when a live
    /// commissioning holds it. A lock file that cannot be opened (a read-only directory) is no lock;
    /// one that is refused (a symbolic link, several hard links: ``OwnedFile``) is not followed and
    /// counts as held, so its record is left alone.
    static func acquire(storePath: String, nodeID: UInt64) -> CommissioningLock? {
        guard storePath != ":memory:", !storePath.isEmpty else { return CommissioningLock(path: nil, file: nil) }
        let path = storePath + ".commissioning-" + Hex.encodeNodeID(nodeID) + ".lock"
        let file: OwnedFile
        do {
            file = try OwnedFile.open(path, access: .readWrite, create: true, mode: 0o600)
        } catch {
            if case .system = error { return CommissioningLock(path: nil, file: nil) }
            return nil
        }
        guard file.tryLock(exclusive: true) == 0 else {
            file.close()
            return nil
        }
        return CommissioningLock(path: path, file: file)
    }

    /// Removes the lock file and releases the lock (idempotent): unlocks explicitly before closing,
    /// since a child process between fork and exec shares the open file description.
    func release() {
        guard let file, file.descriptor >= 0 else { return }
        if let path { unlink(path) }
        file.close()
    }

    deinit { release() }
}

extension Hex {
    /// A node ID as 16 hexadecimal digits, for file names.
    static func encodeNodeID(_ nodeID: UInt64) -> String { encode(nodeID.bigEndianBytes) }
}
