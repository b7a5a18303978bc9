/// One step of a schema: run once, in order, when a file's `PRAGMA user_version` is below `version`.
package struct SQLiteMigration: Sendable {
    /// The schema version this step brings the file to (1, 2, 3...).
    package let version: Int
    /// The change, run inside the migration's write transaction.
    package let apply: @Sendable (borrowing SQLiteConnection) throws(StorageError) -> Void

    package init(version: Int, apply: @escaping @Sendable (borrowing SQLiteConnection) throws(StorageError) -> Void) {
        self.version = version
        self.apply = apply
    }

    /// A step that runs a SQL script (several `;`-separated statements).
    package init(version: Int, sql: String) {
        self.init(version: version) { connection throws(StorageError) in
            try connection.executeScript(sql, operation: "migrating \(connection.path) to schema version \(version)")
        }
    }
}
