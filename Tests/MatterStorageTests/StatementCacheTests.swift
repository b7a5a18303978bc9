import Foundation
import MatterTestSupport
import Testing

@testable import MatterStorage

/// The connection keeps prepared statements for reuse: a reused statement starts from its first row
/// with the new bindings, a query abandoned half-way holds no read open, and a table dropped and
/// made again under a cached statement is read afresh.
@Suite("SQLite statement cache")
struct StatementCacheTests {
    @Test("a reused statement binds anew and starts again, also after a query stopped half-way")
    func reuseStartsAgain() throws {
        let directory = try TemporaryDirectory()
        let database = try SQLiteDatabase(path: directory.file("cache.db"))
        let other = try SQLiteDatabase(path: directory.file("cache.db"))
        struct Stop: Error {}
        try database.withConnection { connection throws(StorageError) in
            try connection.execute("CREATE TABLE t (k INTEGER, v INTEGER)")
            for k in 0..<10 {
                try connection.execute(
                    "INSERT INTO t (k, v) VALUES (?1, ?2)", [.integer(Int64(k)), .integer(Int64(k * k))])
            }
        }
        for k in 0..<10 {
            let value = try database.withConnection { connection throws(StorageError) in
                try connection.query("SELECT v FROM t WHERE k = ?1", [.integer(Int64(k))]) { row throws(StorageError) in
                    try row.int64(0)
                }
            }
            #expect(value == [Int64(k * k)])
        }
        // A query whose row reader fails after the first row leaves the statement mid-way.
        #expect(throws: StorageError.self) {
            try database.withConnection { connection throws(StorageError) in
                _ = try connection.query("SELECT k FROM t ORDER BY k") { row throws(StorageError) in
                    throw StorageError.invalidStoredValue("stop at \(try row.int64(0))")
                }
            }
        }
        // Another connection can still write and checkpoint (no read left open), and the same
        // query then runs from its first row.
        // (The checkpoint's first column is 1 when a reader kept it from finishing.)
        let busy = try other.withConnection { connection throws(StorageError) in
            try connection.execute("INSERT INTO t (k, v) VALUES (10, 100)")
            return try connection.query("PRAGMA wal_checkpoint(TRUNCATE)") { row throws(StorageError) in
                try row.int64(0)
            }
        }
        #expect(busy == [0])
        let keys = try database.withConnection { connection throws(StorageError) in
            try connection.query("SELECT k FROM t ORDER BY k") { row throws(StorageError) in try row.int64(0) }
        }
        #expect(keys == Array(0...10))
    }

    @Test("more distinct statements than the cache keeps, and a table made again under a cached one")
    func manyStatementsAndSchemaChange() throws {
        let database = try SQLiteDatabase.inMemory()
        try database.withConnection { connection throws(StorageError) in
            for version in 1...(SQLiteHandle.statementCacheLimit * 2) {
                try connection.setUserVersion(version)
                #expect(try connection.userVersion() == version)
            }
            try connection.execute("CREATE TABLE t (v)")
            try connection.execute("INSERT INTO t (v) VALUES (1)")
            #expect(try connection.query("SELECT * FROM t") { row in row.count } == [1])
            try connection.execute("DROP TABLE t")
            try connection.execute("CREATE TABLE t (v, w)")
            try connection.execute("INSERT INTO t (v, w) VALUES (2, 3)")
            #expect(try connection.query("SELECT * FROM t") { row in row.count } == [2])
        }
    }
}
