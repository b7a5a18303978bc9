import MatterCore
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
/// get. The file is opened as an ``OwnedFile`` (a symbolic link or a hard-linked file there is
/// refused, never written through) and released with an explicit unlock, not by closing alone.
package final class CommissioningLockFile: Sendable {
    private let file: OwnedFile

    private init(file: OwnedFile) { self.file = file }

    /// The lock file of the state directory whose store is at `storePath`.
    package static func path(storePath: String) -> String { storePath + ".home-commissioning.lock" }

    /// Takes the lock at `path` shared (a CLI commissioning).
    /// - Throws: `commissioning` while a home holds it exclusively, `storage` when the file cannot be
    ///   opened or is refused.
    package static func acquireShared(path: String) throws(HomeError) -> CommissioningLockFile {
        let file = try open(path)
        guard file.tryLock(exclusive: false) == 0 else {
            let holder = holder(file)
            file.close()
            throw HomeError(
                .commissioning,
                "a Home API commissioning session holds this state directory (process \(holder)): "
                    + "wait for it to complete or cancel it")
        }
        return CommissioningLockFile(file: file)
    }

    private static func open(_ path: String) throws(HomeError) -> OwnedFile {
        do {
            return try OwnedFile.open(path, access: .readWrite, create: true, mode: 0o600)
        } catch {
            throw HomeError(.storage, "cannot open the commissioning lock: \(error)")
        }
    }

    /// Whether `bytes` is what this lock file holds: nothing, or a process ID.
    private static func isRecord(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// The process ID the exclusive holder wrote, or a description of who else it may be.
    private static func holder(_ file: OwnedFile) -> String {
        let bytes = file.read(upTo: 32)
        return !bytes.isEmpty && isRecord(bytes)
            ? String(decoding: bytes, as: UTF8.self) : "unknown: a matter-emu pairing?"
    }

    /// Takes the lock at `path`.
    /// - Throws: `commissioning` when another commissioning holds it, `storage` when the file cannot
    ///   be opened or is refused.
    static func acquire(path: String) throws(HomeError) -> CommissioningLockFile {
        let file = try open(path)
        guard file.tryLock(exclusive: true) == 0 else {
            let holder = holder(file)
            file.close()
            throw HomeError(
                .commissioning,
                "another commissioning is in progress on this state directory (process \(holder)); "
                    + "wait for it to complete or cancel it")
        }
        file.replaceContents(with: Array("\(getpid())".utf8), ifOurs: isRecord)
        return CommissioningLockFile(file: file)
    }

    /// Releases the lock (idempotent): empties the file it wrote, then unlocks and closes (a child
    /// process between fork and exec shares the open file description and would otherwise keep the
    /// lock). The file stays: removing it could let two processes lock different files of the same name.
    package func release() {
        guard file.descriptor >= 0 else { return }
        let pid = Array("\(getpid())".utf8)
        file.replaceContents(with: []) { $0 == pid }
        file.close()
    }

    deinit { release() }
}
