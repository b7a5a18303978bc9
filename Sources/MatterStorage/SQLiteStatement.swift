internal import CSQLite

/// The user of a prepared `sqlite3_stmt*` for one run, checked out of its connection's statement
/// cache and handed back (reset, unbound) in `deinit`. It keeps its connection alive, and every
/// SQLite call on the statement happens in one of its methods.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: SQLiteHandle
    private let sql: String
    private let explicitOperation: String?

    /// What the statement is for, in error messages (described from the SQL only when needed: the
    /// description costs more than running a small statement).
    var operation: String { explicitOperation ?? SQLiteStatement.describe(sql, path: connection.path) }

    init(connection: SQLiteHandle, sql: String, operation: String?) throws(StorageError) {
        self.handle = try connection.checkOut(
            sql, operation: operation ?? SQLiteStatement.describe(sql, path: connection.path))
        self.connection = connection
        self.sql = sql
        self.explicitOperation = operation
    }

    deinit { connection.checkIn(handle, sql: sql) }

    /// Binds `values` to parameters 1...n. Text and blobs are copied by SQLite.
    func bind(_ values: [SQLiteValue]) throws(StorageError) {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard values.count == expected else {
            throw .invalidArgument("\(values.count) values bound to \(expected) parameters while \(operation)")
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .integer(let number): rc = sqlite3_bind_int64(handle, index, number)
            case .real(let number): rc = sqlite3_bind_double(handle, index, number)
            case .null: rc = sqlite3_bind_null(handle, index)
            case .text(let string):
                var string = string
                rc = string.withUTF8 { bytes in
                    // A null pointer would bind NULL, so the empty string gets a literal.
                    guard let base = bytes.baseAddress, !bytes.isEmpty else {
                        return sqlite3_bind_text(handle, index, "", 0, CSQLite_TRANSIENT())
                    }
                    return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
                        sqlite3_bind_text64(
                            handle, index, text, UInt64(bytes.count), CSQLite_TRANSIENT(), UInt8(SQLITE_UTF8))
                    }
                }
            case .blob(let bytes):
                rc = bytes.withUnsafeBytes { buffer in
                    // A null pointer would bind NULL: an empty blob is a zero-length zeroblob.
                    guard let base = buffer.baseAddress, !buffer.isEmpty else {
                        return sqlite3_bind_zeroblob(handle, index, 0)
                    }
                    return sqlite3_bind_blob64(handle, index, base, UInt64(buffer.count), CSQLite_TRANSIENT())
                }
            }
            guard rc == SQLITE_OK else { throw connection.error(rc, operation: operation) }
        }
    }

    /// Advances to the next row: true when a row is ready to read, false when the statement is done.
    func step() throws(StorageError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = connection.error(rc, operation: operation)
            sqlite3_reset(handle)
            throw error
        }
    }

    // MARK: Columns of the current row (for SQLiteRow)

    var columnCount: Int32 { sqlite3_column_count(handle) }

    func columnName(_ column: Int32) -> String {
        sqlite3_column_name(handle, column).map { String(cString: $0) } ?? "#\(column)"
    }

    func value(_ column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            // Pointer first, then the length (the order SQLite documents); copied before the next step.
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            guard let blob = sqlite3_column_blob(handle, column) else { return .blob([]) }
            let count = Int(sqlite3_column_bytes(handle, column))
            return .blob(Array(UnsafeRawBufferPointer(start: blob, count: count)))
        default: return .null
        }
    }

    /// "running `SELECT ...` on PATH", with the SQL on one line and cut to a readable length.
    static func describe(_ sql: String, path: String) -> String {
        let words = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let short = words.count > 100 ? words.prefix(97) + "..." : Substring(words)
        return "running `\(short)` on \(path)"
    }
}

/// The current row of a query, valid only inside the closure it was passed to (it is non-copyable, so
/// it cannot be kept). Typed readers throw `invalidStoredValue` when a column's SQLite type is not the
/// one asked for, rather than converting silently.
package struct SQLiteRow: ~Copyable {
    fileprivate let statement: SQLiteStatement

    init(statement: SQLiteStatement) { self.statement = statement }

    /// The number of columns in the result.
    package var count: Int { Int(statement.columnCount) }

    /// The value in `column` (0-based), whatever its type.
    package func value(_ column: Int32) -> SQLiteValue { statement.value(column) }

    package func isNull(_ column: Int32) -> Bool { value(column) == .null }

    package func int64(_ column: Int32) throws(StorageError) -> Int64 {
        guard case .integer(let number) = value(column) else { throw mismatch(column, expected: "INTEGER") }
        return number
    }

    package func double(_ column: Int32) throws(StorageError) -> Double {
        guard case .real(let number) = value(column) else { throw mismatch(column, expected: "REAL") }
        return number
    }

    package func text(_ column: Int32) throws(StorageError) -> String {
        guard case .text(let string) = value(column) else { throw mismatch(column, expected: "TEXT") }
        return string
    }

    package func blob(_ column: Int32) throws(StorageError) -> [UInt8] {
        guard case .blob(let bytes) = value(column) else { throw mismatch(column, expected: "BLOB") }
        return bytes
    }

    package func optionalText(_ column: Int32) throws(StorageError) -> String? {
        isNull(column) ? nil : try text(column)
    }

    package func optionalInt64(_ column: Int32) throws(StorageError) -> Int64? {
        isNull(column) ? nil : try int64(column)
    }

    /// An unsigned 64-bit value stored by bit pattern (`SQLiteValue.bits`).
    package func bits(_ column: Int32) throws(StorageError) -> UInt64 { UInt64(bitPattern: try int64(column)) }

    /// An integer that must fit `T` (a vendor ID, an endpoint...).
    package func integer<T: FixedWidthInteger>(_ column: Int32, as: T.Type = T.self) throws(StorageError) -> T {
        let number = try int64(column)
        guard let value = T(exactly: number) else {
            throw .invalidStoredValue(
                "column \(statement.columnName(column)) holds \(number), out of range for \(T.self)")
        }
        return value
    }

    private func mismatch(_ column: Int32, expected: String) -> StorageError {
        .invalidStoredValue(
            "column \(statement.columnName(column)) holds \(value(column).typeName) where \(expected) was "
                + "expected while \(statement.operation)")
    }
}
