/// What SQLite's (extended) result codes mean for a user of a store, in a few words each, so an
/// error reads "the disk is full" rather than "disk I/O error 4874".
enum SQLiteResultCode {
    /// ENOSPC and EDQUOT: the file system or the user's quota is full.
    static let diskFullErrnos: Set<Int32> = [28, 122]
    /// EROFS and EACCES/EPERM.
    static let readOnlyErrnos: Set<Int32> = [30]
    static let permissionErrnos: Set<Int32> = [1, 13]

    /// The meaning of extended result `code`, given the operating system's `errno` for it (0 when
    /// unknown), and what to do about it.
    static func meaning(_ code: Int32, errno: Int32) -> (what: String, advice: String) {
        if diskFullErrnos.contains(errno) || code & 0xFF == 13 {
            return ("the disk is full", "free some space or use another --state-dir")
        }
        if readOnlyErrnos.contains(errno) {
            return ("the file system is read-only", "use a writable --state-dir")
        }
        if permissionErrnos.contains(errno) {
            return ("permission denied", "check the owner and mode of the file and its directory")
        }
        switch code {
        case 1032: return ("the file was moved or deleted while open", "run the command again")
        case 4874:
            return (
                "cannot grow the shared-memory file beside the store (-shm): the disk is probably full",
                "free some space or use another --state-dir"
            )
        case 4618, 5130, 5386:
            return ("cannot use the shared-memory file beside the store (-shm)", "check the directory's permissions")
        case 266, 522: return ("cannot read the file (disk I/O error)", "check the disk")
        case 778, 1034, 1290, 1546:
            return ("cannot write the file (disk I/O error)", "check the disk and its free space")
        default: break
        }
        switch code & 0xFF {
        case 26: return ("not a database", "the file is not a SQLite database: move it aside to start afresh")
        case 11: return ("the database is damaged", "move the file aside to start afresh, or restore a copy")
        case 5, 6: return ("the store is locked", "another process holds the store locked for too long")
        case 8: return ("read-only", "the file or its directory is read-only")
        case 14: return ("cannot open the file", "check the path and permissions")
        case 3, 23: return ("permission denied", "check the owner and mode of the file and its directory")
        case 10: return ("disk I/O error", "check the disk and its free space")
        case 7: return ("out of memory", "")
        default: return ("", "")
        }
    }
}
