internal import CSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// The one owner of a `sqlite3*` handle, closed in `deinit`. Every call into SQLite on the handle
/// happens in a method of this class (or of `SQLiteStatement`, which keeps its connection alive), so
/// the handle never outlives its owner.
///
/// Not thread-safe by itself: it is opened with `SQLITE_OPEN_NOMUTEX`, lives inside `SQLiteDatabase`'s
/// mutex, and is reached only through a non-copyable `SQLiteConnection` lent to a closure under that
/// mutex, so one thread at a time uses it.
final class SQLiteHandle {
    private let handle: OpaquePointer
    /// The file this connection has open (":memory:" for an in-memory database).
    let path: String
    /// Prepared statements not in use, reset and unbound, by their SQL: a store runs the same few
    /// statements over and over (a fleet's start-up spent half its SQLite time preparing them).
    /// A statement in use is taken out, so a nested use of the same SQL prepares its own.
    private var idleStatements: [String: OpaquePointer] = [:]
    /// At most this many idle statements are kept (SQL with values written into it, such as
    /// `PRAGMA user_version = 3`, would otherwise grow the cache); the rest are finalized.
    static let statementCacheLimit = 64

    /// Opens (creating if needed) the database at `path`. The file's directory and mode are the
    /// caller's business (`StorageFile.prepare`).
    init(path: String) throws(StorageError) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard let db else {
            throw .sqlite(code: rc, message: "out of memory", operation: "opening \(path)")
        }
        guard rc == SQLITE_OK else {
            let message = Self.message(db)
            sqlite3_close_v2(db)
            throw StorageError.fromSQLite(code: rc, message: message, operation: "opening \(path)", path: path)
        }
        sqlite3_extended_result_codes(db, 1)
        handle = db
        self.path = path
    }

    deinit {
        for statement in idleStatements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Sets the per-connection options every store relies on, and WAL mode for a file.
    ///
    /// - `busy_timeout`: a writer waits this long for another connection's write lock.
    /// - `journal_mode=WAL`: readers never block the writer and vice versa; a commit is one append to
    ///   the `-wal` file, so a process killed at any point leaves the last committed state.
    /// - `synchronous=NORMAL`: in WAL mode SQLite then syncs at checkpoints, not at every commit. A
    ///   killed process loses nothing (the written WAL frames are in the OS cache, and a frame set
    ///   without its commit frame is ignored on recovery); an OS crash or power loss may lose the last
    ///   few commits but never mixes two states. Power loss is outside our threat model, and FULL
    ///   would cost one fsync per commit (node-ID allocation, every device attribute write).
    /// - `foreign_keys=ON`: group memberships go with their node or group.
    func configure(busyTimeout: Duration, inMemory: Bool) throws(StorageError) {
        let milliseconds =
            busyTimeout.components.seconds * 1000
            + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
        _ = CSQLite_setDefensive(handle, 1)
        _ = CSQLite_setTrustedSchema(handle, 0)
        try execute("PRAGMA foreign_keys = ON", operation: "enabling foreign keys on \(path)")
        guard !inMemory else { return }
        // The first statement to read the file, before anything writes to it (switching to WAL writes
        // the header): a file that is not a database (SQLITE_NOTADB) or fails the check is refused
        // as damaged, unchanged.
        try quickCheck()
        // Switching to WAL takes an exclusive lock once per file; several processes opening a new
        // file together may see SQLITE_BUSY, hence the retry.
        let mode = try retryingBusy { () throws(StorageError) in
            try query("PRAGMA journal_mode = WAL", operation: "switching \(path) to WAL mode") {
                row throws(StorageError) in
                try row.text(0)
            }.first
        }
        guard mode?.lowercased() == "wal" else {
            throw .sqlite(
                code: SQLITE_CANTOPEN, message: "journal mode stayed \"\(mode ?? "?")\"",
                operation: "switching \(path) to WAL mode (is it on a local file system?)")
        }
        try execute("PRAGMA synchronous = NORMAL", operation: "setting synchronous=NORMAL on \(path)")
    }

    // MARK: Statements

    /// Runs one statement to completion and returns the number of rows it changed.
    @discardableResult
    func execute(_ sql: String, _ bindings: [SQLiteValue] = [], operation: String? = nil)
        throws(StorageError) -> Int
    {
        let statement = try SQLiteStatement(connection: self, sql: sql, operation: operation)
        try statement.bind(bindings)
        while try statement.step() {}
        return Int(sqlite3_changes64(handle))
    }

    /// Runs one query and maps each result row through `row` (which must not keep the row).
    func query<T>(
        _ sql: String, _ bindings: [SQLiteValue] = [], operation: String? = nil,
        row: (borrowing SQLiteRow) throws(StorageError) -> T
    ) throws(StorageError) -> [T] {
        let statement = try SQLiteStatement(connection: self, sql: sql, operation: operation)
        try statement.bind(bindings)
        var results: [T] = []
        while try statement.step() {
            results.append(try row(SQLiteRow(statement: statement)))
        }
        return results
    }

    /// Runs several `;`-separated statements without bindings (schema scripts).
    func executeScript(_ sql: String, operation: String) throws(StorageError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        guard rc == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(message)
            throw StorageError.fromSQLite(code: rc, message: text, operation: operation, path: path)
        }
    }

    /// `PRAGMA user_version`: the schema version of the file.
    func userVersion() throws(StorageError) -> Int {
        let version = try query("PRAGMA user_version", operation: "reading the schema version of \(path)") {
            row throws(StorageError) in try row.int64(0)
        }.first
        return Int(version ?? 0)
    }

    /// Sets `PRAGMA user_version` (a pragma takes no bound parameters; the value is an integer).
    func setUserVersion(_ version: Int) throws(StorageError) {
        try execute(
            "PRAGMA user_version = \(Int32(clamping: version))", operation: "setting the schema version of \(path)")
    }

    // MARK: Transactions

    /// True between BEGIN and COMMIT/ROLLBACK.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// `BEGIN IMMEDIATE`: takes the write lock now, so two writers serialize here instead of one
    /// failing later with SQLITE_BUSY when it upgrades from reading to writing.
    func beginImmediate() throws(StorageError) {
        _ = try retryingBusy { () throws(StorageError) in
            try execute("BEGIN IMMEDIATE", operation: "starting a write transaction on \(path)")
        }
    }

    func commit() throws(StorageError) {
        try execute("COMMIT", operation: "committing a transaction on \(path)")
    }

    /// Rolls back if a transaction is still open (some errors roll back by themselves). A failing
    /// ROLLBACK leaves nothing to do: SQLite discards the uncommitted changes when the lock drops.
    func rollback() {
        guard isInTransaction else { return }
        _ = try? execute("ROLLBACK", operation: "rolling back a transaction on \(path)")
    }

    /// How often an operation that still gets SQLITE_BUSY after the busy timeout is tried again.
    /// The busy handler does not run in a few cases (WAL recovery by another connection, a lock
    /// change of the journal mode), and a heavily contended lock may outlast one timeout.
    static let busyRetries = 3

    /// Runs `body`, retrying it after a short pause while it fails with SQLITE_BUSY.
    private func retryingBusy<T>(_ body: () throws(StorageError) -> T) throws(StorageError) -> T {
        var attempt = 0
        while true {
            do {
                return try body()
            } catch {
                guard error.sqlitePrimaryCode == SQLITE_BUSY, attempt < SQLiteHandle.busyRetries else { throw error }
                attempt += 1
                usleep(UInt32(attempt) * 20_000)
            }
        }
    }

    // MARK: For SQLiteStatement

    /// An idle prepared statement for `sql` (taken out of the cache until ``checkIn(_:sql:)``), or a
    /// newly prepared one; throws if `sql` holds more than one statement.
    func checkOut(_ sql: String, operation: @autoclosure () -> String) throws(StorageError) -> OpaquePointer {
        if let statement = idleStatements.removeValue(forKey: sql) { return statement }
        return try prepare(sql, operation: operation())
    }

    /// Takes back a statement from ``checkOut(_:operation:)`` once its user is done: reset (which
    /// ends any read it holds) and unbound, it waits in the cache, or is finalized when the cache is
    /// full or already holds one for `sql`.
    func checkIn(_ statement: OpaquePointer, sql: String) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        guard idleStatements[sql] == nil, idleStatements.count < Self.statementCacheLimit else {
            sqlite3_finalize(statement)
            return
        }
        idleStatements[sql] = statement
    }

    /// Prepares one statement; throws if `sql` holds more than one.
    private func prepare(_ sql: String, operation: @autoclosure () -> String) throws(StorageError) -> OpaquePointer {
        var statement: OpaquePointer?
        var trailing = false
        let rc = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v2(handle, text, -1, &statement, &tail)
            if let tail { trailing = String(cString: tail).contains { !$0.isWhitespace && $0 != ";" } }
            return rc
        }
        guard rc == SQLITE_OK, let statement else {
            throw error(rc == SQLITE_OK ? SQLITE_MISUSE : rc, operation: operation())
        }
        guard !trailing else {
            sqlite3_finalize(statement)
            throw .invalidArgument("more than one SQL statement while \(operation())")
        }
        return statement
    }

    /// A `StorageError` for result code `code`, with the connection's current error message.
    /// Call it right after the failing call, on the same thread.
    func error(_ code: Int32, operation: String) -> StorageError {
        StorageError.fromSQLite(code: code, message: Self.message(handle), operation: operation, path: path)
    }

    /// `PRAGMA quick_check`: SQLite's structural check of every page (not of index contents against
    /// their tables, which `integrity_check` adds at many times the cost). Throws
    /// ``StorageError/storeDamaged(path:code:detail:)`` naming what it found.
    func quickCheck() throws(StorageError) {
        let findings = try query("PRAGMA quick_check", operation: "checking \(path) (quick_check)") {
            row throws(StorageError) in try row.text(0)
        }
        guard findings != ["ok"] else { return }
        let detail = findings.prefix(3).joined(separator: "; ")
        throw .storeDamaged(path: path, code: SQLITE_CORRUPT, detail: "quick_check: \(detail)")
    }

    /// SQLite's message for the connection's last error, with the system `errno` behind it when
    /// there is one ("disk I/O error; errno 28"), which tells a full disk from a failing one.
    static func message(_ db: OpaquePointer) -> String {
        let text = String(cString: sqlite3_errmsg(db))
        let code = sqlite3_system_errno(db)
        return code == 0 ? text : "\(text); errno \(code)"
    }
}
