import Foundation
import MatterTestSupport
import Synchronization
import Testing

@testable import MatterStorage

@Suite("SQLiteDatabase")
struct SQLiteDatabaseTests {
    /// Binds `value` into an untyped column and reads it back.
    private func roundTrip(_ value: SQLiteValue, _ database: SQLiteDatabase) throws -> SQLiteValue? {
        try database.withConnection { connection throws(StorageError) in
            try connection.execute("DELETE FROM t")
            try connection.execute("INSERT INTO t (v) VALUES (?1)", [value])
            return try connection.query("SELECT v FROM t") { row in row.value(0) }.first
        }
    }

    /// Reads the single column of `SELECT expression` with `reader`.
    private func read<T: Sendable>(
        _ expression: String, _ reader: (borrowing SQLiteRow) throws(StorageError) -> T
    ) throws -> T? {
        try SQLiteDatabase.inMemory().withConnection { connection throws(StorageError) in
            try connection.query("SELECT \(expression) AS vendor_id", row: reader).first
        }
    }

    /// Every value of integer column `v` of table `t`, in order.
    private func values(_ database: SQLiteDatabase) throws -> [Int64] {
        try database.withConnection { connection throws(StorageError) in
            try connection.query("SELECT v FROM t ORDER BY v") { row throws(StorageError) in try row.int64(0) }
        }
    }

    @Test("every SQLite type round-trips exactly, empty text and blobs included")
    func roundTrips() throws {
        let directory = try TemporaryDirectory()
        let database = try SQLiteDatabase(path: directory.file("values.db"))
        try database.withConnection { connection throws(StorageError) in try connection.execute("CREATE TABLE t (v)") }
        var generator = SystemRandomNumberGenerator()
        let big = (0..<(1 << 16)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let values: [SQLiteValue] = [
            .integer(.min), .integer(-1), .integer(0), .integer(1), .integer(.max),
            .real(0), .real(-1.5), .real(.pi), .real(.greatestFiniteMagnitude), .real(.infinity),
            .text(""), .text("on-off light"), .text("Ünïcødé 🎛️ 客厅"), .text("a\u{0}b"),
            .blob([]), .blob([0]), .blob([0x00, 0x01, 0xFE, 0xFF]), .blob(big),
            .null,
        ]
        for value in values {
            #expect(try roundTrip(value, database) == value, "\(value.typeName)")
        }
        // A 64-bit ID above Int64.max is stored by bit pattern.
        #expect(try roundTrip(.bits(0xFFFF_FFEF_FFFF_FFFF), database) == .integer(-0x10_0000_0001))
        #expect(try roundTrip(.text(nil as String?), database) == .null)
    }

    @Test("typed readers return their own type")
    func typedReaders() throws {
        #expect(try read("7") { row throws(StorageError) in try row.int64(0) } == 7)
        #expect(try read("-1") { row throws(StorageError) in try row.bits(0) } == UInt64.max)
        #expect(try read("2.5") { row throws(StorageError) in try row.double(0) } == 2.5)
        #expect(try read("'x'") { row throws(StorageError) in try row.text(0) } == "x")
        #expect(try read("x'0102'") { row throws(StorageError) in try row.blob(0) } == [1, 2])
        #expect(try read("NULL") { row in row.isNull(0) } == true)
        #expect(try read("NULL") { row throws(StorageError) in try row.optionalText(0) } == .some(nil))
        #expect(try read("NULL") { row throws(StorageError) in try row.optionalInt64(0) } == .some(nil))
        #expect(try read("'x'") { row throws(StorageError) in try row.optionalText(0) } == "x")
        #expect(try read("7") { row throws(StorageError) in try row.optionalInt64(0) } == 7)
        #expect(try read("65535") { row throws(StorageError) in try row.integer(0, as: UInt16.self) } == 0xFFFF)
        #expect(try read("1, 2, 3") { row in row.count } == 3)
    }

    @Test("typed readers refuse another type or an out-of-range integer instead of converting")
    func typedReaderMismatches() throws {
        #expect(throws: StorageError.self) { try read("7") { row throws(StorageError) in try row.text(0) } }
        #expect(throws: StorageError.self) { try read("'x'") { row throws(StorageError) in try row.blob(0) } }
        #expect(throws: StorageError.self) { try read("NULL") { row throws(StorageError) in try row.int64(0) } }
        #expect(throws: StorageError.self) { try read("7") { row throws(StorageError) in try row.double(0) } }
        #expect(throws: StorageError.self) { try read("x'01'") { row throws(StorageError) in try row.optionalText(0) } }
        #expect(throws: StorageError.self) {
            try read("65536") { row throws(StorageError) in try row.integer(0, as: UInt16.self) }
        }
        let error = #expect(throws: StorageError.self) {
            try read("'seven'") { row throws(StorageError) in try row.int64(0) }
        }
        guard case .invalidStoredValue(let message) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(message.contains("vendor_id") && message.contains("TEXT") && message.contains("INTEGER"))
    }

    @Test("a transaction commits everything, or rolls back everything when its body throws")
    func transactions() throws {
        struct Abort: Error, Equatable {}
        let directory = try TemporaryDirectory()
        let database = try SQLiteDatabase(path: directory.file("tx.db"))
        try database.withConnection { connection throws(StorageError) in
            try connection.execute("CREATE TABLE t (v INTEGER) STRICT")
        }

        let committed = try database.transaction { connection throws(StorageError) in
            try connection.execute("INSERT INTO t VALUES (1)")
            try connection.execute("INSERT INTO t VALUES (2)")
            return "done"
        }
        #expect(committed == "done")

        let outcome = try database.transactionResult { connection throws(Abort) -> Int in
            #expect((try? connection.execute("INSERT INTO t VALUES (3)")) == 1)
            #expect((try? connection.execute("DELETE FROM t WHERE v = 1")) == 1)
            throw Abort()
        }
        #expect(throws: Abort.self) { try outcome.get() }

        // A SQLite failure inside the body rolls back the statements before it too.
        #expect(throws: StorageError.self) {
            try database.transaction { connection throws(StorageError) in
                try connection.execute("INSERT INTO t VALUES (4)")
                try connection.execute("INSERT INTO t VALUES ('not an integer')")
            }
        }
        #expect(try values(database) == [1, 2])
        // The connection is usable afterwards: no transaction was left open.
        try database.transaction { connection throws(StorageError) in try connection.execute("INSERT INTO t VALUES (5)")
        }
        #expect(try values(database) == [1, 2, 5])
    }

    @Test("a writer blocked past its busy timeout fails with SQLITE_BUSY; readers are never blocked")
    func busyWriter() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("busy.db")
        let holder = try SQLiteDatabase(path: path, busyTimeout: .milliseconds(20))
        let other = try SQLiteDatabase(path: path, busyTimeout: .milliseconds(20))
        try holder.withConnection { connection throws(StorageError) in
            try connection.execute("CREATE TABLE t (v INTEGER) STRICT")
        }

        var blockedError: StorageError?
        var seenByReader: [Int64] = []
        try holder.transaction { connection throws(StorageError) in
            try connection.execute("INSERT INTO t VALUES (1)")
            do throws(StorageError) {
                try other.transaction { connection throws(StorageError) in
                    try connection.execute("INSERT INTO t VALUES (2)")
                }
            } catch {
                blockedError = error
            }
            // WAL: the other connection reads the last committed state while the write lock is held.
            seenByReader = try other.withConnection { connection throws(StorageError) in
                try connection.query("SELECT count(*) FROM t") { row throws(StorageError) in try row.int64(0) }
            }
        }
        #expect(blockedError?.sqlitePrimaryCode == 5)
        #expect(blockedError?.description.contains("another process holds the store locked") == true)
        #expect(seenByReader == [0])
        // Once the lock is free, the other connection writes.
        try other.transaction { connection throws(StorageError) in try connection.execute("INSERT INTO t VALUES (2)") }
        #expect(try values(holder) == [1, 2])
    }

    @Test("connections use WAL, synchronous=NORMAL, foreign keys and the busy timeout")
    func pragmas() throws {
        let directory = try TemporaryDirectory()
        let database = try SQLiteDatabase(path: directory.file("pragmas.db"), busyTimeout: .seconds(5))
        let settings = try database.withConnection { connection throws(StorageError) in
            try ["journal_mode", "synchronous", "foreign_keys", "busy_timeout"].map { (pragma) throws(StorageError) in
                try connection.query("PRAGMA \(pragma)") { row in row.value(0) }.first
            }
        }
        #expect(settings == [.text("wal"), .integer(1), .integer(1), .integer(5000)])
    }

    @Test("schema migrations run once each, in order, and survive reopening")
    func migrations() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("migrations.db")
        let applied = Mutex<[Int]>([])
        func step(_ version: Int) -> SQLiteMigration {
            SQLiteMigration(version: version) { connection throws(StorageError) in
                applied.withLock { $0.append(version) }
                try connection.execute("CREATE TABLE v\(version) (x)")
            }
        }
        let database = try SQLiteDatabase(path: path)
        try database.migrate([step(2), step(1)])
        try database.migrate([step(1), step(2)])
        #expect(applied.withLock { $0 } == [1, 2])

        let reopened = try SQLiteDatabase(path: path)
        try reopened.migrate([step(1), step(2)])
        try reopened.migrate([step(1), step(2), step(3)])
        #expect(applied.withLock { $0 } == [1, 2, 3])
        #expect(try reopened.withConnection { connection throws(StorageError) in try connection.userVersion() } == 3)

        // An older build refuses a newer file instead of misreading it.
        #expect(throws: StorageError.schemaTooNew(path: path, found: 3, supported: 2)) {
            try reopened.migrate([step(1), step(2)])
        }
    }

    @Test("a failing migration leaves the file at its previous version, with no half-made tables")
    func failingMigration() throws {
        let database = try SQLiteDatabase.inMemory()
        let broken = SQLiteMigration(version: 2, sql: "CREATE TABLE half (x); CREATE TABLE oops (")
        #expect(throws: StorageError.self) {
            try database.migrate([SQLiteMigration(version: 1, sql: "CREATE TABLE one (x)"), broken])
        }
        let tables = try database.withConnection { connection throws(StorageError) in
            try connection.query("SELECT name FROM sqlite_schema WHERE type = 'table'") {
                row throws(StorageError) in try row.text(0)
            }
        }
        #expect(tables == [])
        #expect(try database.withConnection { connection throws(StorageError) in try connection.userVersion() } == 0)
    }

    @Test("new files are mode 0600 (with their WAL side files) and new directories 0700")
    func fileModes() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("a/b/c/store.db")
        let store = try KeyValueStore(path: path)
        try store.set("k", to: [1], namespace: "n")
        #expect(try permissions(path) == 0o600)
        #expect(try permissions(path + "-wal") == 0o600)
        #expect(try permissions(path + "-shm") == 0o600)
        for created in ["a", "a/b", "a/b/c"] {
            #expect(try permissions(directory.file(created)) == 0o700, "\(created)")
        }
    }

    @Test("an existing file readable by others is tightened to 0600")
    func tightensMode() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("loose.db")
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]))
        #expect(try permissions(path) == 0o644)
        _ = try KeyValueStore(path: path)
        #expect(try permissions(path) == 0o600)
    }

    @Test("a file that is not a SQLite database gives SQLITE_NOTADB with a clear message")
    func notADatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("notes.db")
        try String(repeating: "these are not the tables you are looking for\n", count: 100)
            .write(toFile: path, atomically: false, encoding: .utf8)
        let error = #expect(throws: StorageError.self) { try KeyValueStore(path: path) }
        #expect(error?.sqlitePrimaryCode == 26)
        #expect(error?.description.contains(path) == true)
        #expect(error?.description.contains("not a SQLite database") == true)
        #expect(throws: StorageError.self) { try ControllerStore(path: path) }
    }

    @Test("a damaged database gives a StorageError, not a crash")
    func damagedDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("damaged.db")
        do {
            let store = try KeyValueStore(path: path)
            try store.write { tx in
                for index in 0..<300 {
                    try tx.set("key-\(index)", to: [UInt8](repeating: 7, count: 1000), namespace: "n")
                }
            }
        }  // The last connection closes: the WAL is checkpointed into the file and removed.
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: Int(size) - 8192))
        try handle.close()

        let error = #expect(throws: StorageError.self) { try KeyValueStore(path: path).keys(namespace: "n") }
        #expect([11, 26].contains(error?.sqlitePrimaryCode ?? 0), "\(String(describing: error))")
    }

    @Test("a path that is a directory, or under a regular file, gives a file-system error")
    func badPaths() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: StorageError.self) { try SQLiteDatabase(path: directory.path) }
        let file = directory.file("plain")
        #expect(FileManager.default.createFile(atPath: file, contents: Data([1])))
        let error = #expect(throws: StorageError.self) { try SQLiteDatabase(path: file + "/inside/store.db") }
        guard case .fileSystem(let code, _, let operation) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(code == ENOTDIR)
        #expect(operation.contains(file))
        #expect(throws: StorageError.invalidArgument("the store path is empty")) { try SQLiteDatabase(path: "") }
    }

    @Test("statement misuse throws instead of trapping")
    func misuse() throws {
        let database = try SQLiteDatabase.inMemory()
        func run(_ sql: String, _ bindings: [SQLiteValue] = []) throws {
            try database.withConnection { connection throws(StorageError) in try connection.execute(sql, bindings) }
        }
        #expect(throws: StorageError.self) { try run("SELECT 1; SELECT 2") }
        #expect(throws: StorageError.self) { try run("SELECT ?1, ?2", [.integer(1)]) }
        let error = #expect(throws: StorageError.self) { try run("SELEKT 1") }
        #expect(error?.sqlitePrimaryCode == 1)
        #expect(error?.description.contains("syntax error") == true)
        #expect(error?.description.contains("SELEKT 1") == true)
    }

    @Test(
        "parent directory of a path",
        arguments: [("a/b", "a"), ("b", "."), ("/b", "/"), ("/a/b/", "/a"), ("/a/b/c.db", "/a/b"), ("/", "/")])
    func parentDirectory(path: String, parent: String) {
        #expect(StorageFile.parent(of: path) == parent)
    }
}
