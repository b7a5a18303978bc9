import MatterCore
import Synchronization

/// One connection to a SQLite file, safe to share between threads and tasks.
///
/// The connection sits behind a `Mutex`: each call (a query, or a whole transaction) holds it, so one
/// thread at a time uses the connection, and calls from other threads wait. Calls block the calling
/// thread (a write waits up to the busy timeout for another process's write lock); they are short, so
/// an actor may call them from its own queue.
///
/// Several processes (or several `SQLiteDatabase` values in one process) may open one file: each has
/// its own connection, and SQLite's file locks serialize their write transactions (`BEGIN IMMEDIATE`
/// with a busy timeout and a few retries), while readers proceed in parallel thanks to WAL mode.
///
/// Opening a file creates its missing parent directories with mode 0700 and the file with mode 0600
/// (an existing file is set to 0600 once it opened as a sound store), because stores hold private
/// keys. The file is checked with `PRAGMA quick_check` at open.
///
/// Crash consistency: the file is in WAL mode with `synchronous=NORMAL`. A commit appends its pages and
/// a commit frame to the `-wal` file; a process killed at any instant (kill -9) leaves either the whole
/// transaction or none of it, because frames without their commit frame are ignored when the file is
/// next opened, and the OS releases a dead process's locks. `NORMAL` syncs only at checkpoints, so an OS
/// crash or power loss may lose the last few commits (still never a mixture); power loss is outside our
/// threat model, and `FULL` would add an fsync to every commit (every node-ID allocation, every
/// persisted attribute write).
package final class SQLiteDatabase: Sendable {
    /// The file this database has open (":memory:" for `inMemory()`).
    package let path: String
    private let handle: Mutex<SQLiteHandle>

    /// Opens the SQLite file at `path`, creating it and its parent directories if needed.
    ///
    /// - Parameter busyTimeout: how long a write waits for another connection's write lock before
    ///   trying again (three more times) and then failing with SQLITE_BUSY.
    /// - Throws: `StorageError.fileSystem` when the directory or file cannot be created,
    ///   `refusedFile` for a symbolic link, a file with several hard links or not a regular file,
    ///   `storeDamaged` for a file that is not a SQLite database or fails `PRAGMA quick_check`, and
    ///   `StorageError.sqlite` when SQLite cannot open it otherwise. A refused or damaged file is
    ///   not changed (no mode, no write).
    package convenience init(path: String, busyTimeout: Duration = .seconds(5)) throws(StorageError) {
        let prepared = try StorageFile.prepare(path: path)
        try self.init(path: path, busyTimeout: busyTimeout, inMemory: false)
        // SQLite opened the path itself: it must still be the file checked above (not a link put
        // there meanwhile), before anything is written or any mode changed.
        do throws(OwnedFileError) {
            guard try OwnedFile.inspect(path)?.identity == prepared.identity else {
                throw .symbolicLink(path: path)
            }
        } catch {
            throw StorageError(error)
        }
        StorageFile.tightenMode(path: path, prepared: prepared)
    }

    /// A private, empty database in memory, gone when the value is released: the double for tests of
    /// code that persists through `KeyValueStore` or `ControllerStore`.
    package static func inMemory() throws(StorageError) -> SQLiteDatabase {
        try SQLiteDatabase(path: ":memory:", busyTimeout: .zero, inMemory: true)
    }

    private init(path: String, busyTimeout: Duration, inMemory: Bool) throws(StorageError) {
        let handle = try SQLiteHandle(path: path)
        try handle.configure(busyTimeout: busyTimeout, inMemory: inMemory)
        self.path = path
        self.handle = Mutex(handle)
    }

    /// Runs `body` with the connection, outside any explicit transaction (each statement is its own
    /// transaction). `body` must not call back into this database: the mutex is not reentrant.
    @discardableResult
    // Not specialized: Swift 6.3.1's generic specializer crashes on these closure-taking
    // functions at -O ("forwardToInit at SILValue.h:375"); SQLite dominates their cost.
    @_semantics("optimize.sil.specialize.generic.never")
    package func withConnection<T: Sendable, E: Error>(
        _ body: (borrowing SQLiteConnection) throws(E) -> T
    ) throws(E) -> T {
        try handle.withLock { (handle: inout sending SQLiteHandle) throws(E) -> T in
            try body(SQLiteConnection(handle))
        }
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE` ... `COMMIT`). If `body` throws, the
    /// transaction is rolled back and its error is returned as `.failure`; if SQLite fails (taking the
    /// lock, or the commit), the transaction is rolled back and a `StorageError` is thrown. `body` must
    /// not call back into this database.
    @_semantics("optimize.sil.specialize.generic.never")  // see withConnection
    package func transactionResult<T: Sendable, E: Error>(
        _ body: (borrowing SQLiteConnection) throws(E) -> T
    ) throws(StorageError) -> Result<T, E> {
        try handle.withLock { (handle: inout sending SQLiteHandle) throws(StorageError) -> Result<T, E> in
            try handle.beginImmediate()
            let result: Result<T, E>
            do throws(E) {
                result = .success(try body(SQLiteConnection(handle)))
            } catch {
                result = .failure(error)
            }
            switch result {
            case .success:
                do throws(StorageError) {
                    try handle.commit()
                } catch {
                    handle.rollback()
                    throw error
                }
            case .failure:
                handle.rollback()
            }
            return result
        }
    }

    /// `transactionResult` for a body that throws only `StorageError`.
    @discardableResult
    @_semantics("optimize.sil.specialize.generic.never")
    package func transaction<T: Sendable>(_ body: (borrowing SQLiteConnection) throws(StorageError) -> T)
        throws(StorageError)
        -> T
    {
        try transactionResult(body).get()
    }

    /// Brings the file's schema up to the last of `migrations`, in one write transaction: those with a
    /// version above `PRAGMA user_version` run in order, then `user_version` is set to the last one.
    /// Idempotent, and safe when several processes open a new file at once (the second one to take
    /// the write lock finds the work done).
    /// - Throws: `StorageError.schemaTooNew` when the file's version is above the last migration's.
    @_semantics("optimize.sil.specialize.generic.never")
    package func migrate(_ migrations: [SQLiteMigration]) throws(StorageError) {
        let ordered = migrations.sorted { $0.version < $1.version }
        let latest = ordered.last?.version ?? 0
        let path = self.path
        let current = try withConnection { connection throws(StorageError) in try connection.userVersion() }
        guard current <= latest else { throw .schemaTooNew(path: path, found: current, supported: latest) }
        guard current < latest else { return }
        try transaction { connection throws(StorageError) in
            // Read again under the write lock: another process may have migrated meanwhile.
            let current = try connection.userVersion()
            guard current <= latest else { throw .schemaTooNew(path: path, found: current, supported: latest) }
            for migration in ordered where migration.version > current {
                try migration.apply(connection)
            }
            try connection.setUserVersion(latest)
        }
    }
}
