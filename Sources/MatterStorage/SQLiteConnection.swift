/// The database connection as lent to a closure by `SQLiteDatabase` (`withConnection`, `transaction`,
/// migrations), under the database's mutex. It is non-copyable, so the closure cannot keep it: the
/// connection is used by one thread at a time and only while the mutex is held. That is why the
/// `@unchecked Sendable` holds.
package struct SQLiteConnection: ~Copyable, @unchecked Sendable {
    let handle: SQLiteHandle

    init(_ handle: SQLiteHandle) { self.handle = handle }

    /// The file this connection has open.
    package var path: String { handle.path }

    /// Runs one statement to completion and returns the number of rows it changed. `operation` says
    /// what it is for in error messages (default: the SQL and the path).
    @discardableResult
    package func execute(_ sql: String, _ bindings: [SQLiteValue] = [], operation: String? = nil)
        throws(StorageError) -> Int
    {
        try handle.execute(sql, bindings, operation: operation)
    }

    /// Runs one query and maps each result row through `row`.
    package func query<T>(
        _ sql: String, _ bindings: [SQLiteValue] = [], operation: String? = nil,
        row: (borrowing SQLiteRow) throws(StorageError) -> T
    ) throws(StorageError) -> [T] {
        try handle.query(sql, bindings, operation: operation, row: row)
    }

    /// Runs several `;`-separated statements without bindings (schema scripts).
    package func executeScript(_ sql: String, operation: String) throws(StorageError) {
        try handle.executeScript(sql, operation: operation)
    }

    /// `PRAGMA user_version`: the schema version of the file.
    package func userVersion() throws(StorageError) -> Int { try handle.userVersion() }

    /// Sets `PRAGMA user_version`.
    package func setUserVersion(_ version: Int) throws(StorageError) { try handle.setUserVersion(version) }
}
