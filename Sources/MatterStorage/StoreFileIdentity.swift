#if canImport(Glibc)
    import Glibc
#endif

/// Which file a store has open: its device and inode, read when the store was opened.
///
/// A SQLite connection keeps writing to the file it opened even after that file was deleted or
/// replaced (renamed over) on disk, and every write "succeeds" into a file nobody will open again.
/// Comparing the path's identity now with the one captured at open tells that apart.
package struct StoreFileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file at `path` now, or nil when there is none.
    /// - Throws: `StorageError.fileSystem` when `stat` fails for another reason than a missing file.
    static func current(path: String) throws(StorageError) -> StoreFileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw .fileSystem(errno: code, message: String(cString: strerror(code)), operation: "checking \(path)")
        }
        return StoreFileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
