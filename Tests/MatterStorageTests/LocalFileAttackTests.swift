import Foundation
import MatterCore
import MatterTestSupport
import Testing

@testable import MatterStorage

/// Issue 35, causes 1-3 at the storage layer: lock files and stores reached through a symbolic link
/// or a hard link are refused and left as they were; ownership is one per file, not per path.
@Suite("Stores and locks: links and files that are not ours")
struct LocalFileAttackTests {
    @Test("a symbolic link at <store>.lock is refused; its target is neither written nor emptied")
    func lockFileSymlink() throws {
        let directory = try TemporaryDirectory()
        let victim = try directory.victim("victim.txt")
        let before = try FileSnapshot(victim)
        let store = directory.file("device.sqlite")
        let link = try directory.symlink("device.sqlite.lock", to: victim)
        let error = #expect(throws: StorageError.self) { try StoreOwnership.claim(path: store, holder: "test") }
        guard case .refusedFile(let path, let reason) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(path == link)
        #expect(reason.contains("symbolic link"))
        #expect(try FileSnapshot(victim) == before)
    }

    @Test("a hard link at <store>.lock is refused; the other file is neither written nor emptied")
    func lockFileHardLink() throws {
        let directory = try TemporaryDirectory()
        let victim = try directory.victim("victim.txt")
        let before = try FileSnapshot(victim)
        let store = directory.file("device.sqlite")
        let link = try directory.hardLink("device.sqlite.lock", to: victim)
        let error = #expect(throws: StorageError.self) { try StoreOwnership.claim(path: store, holder: "test") }
        #expect(error == .refusedFile(path: link, reason: OwnedFileError.hardLinked(path: link, links: 2).description))
        #expect(try FileSnapshot(victim) == before)
    }

    @Test("a store path that is a symbolic link to another file is refused without changing its mode or contents")
    func storeSymlink() throws {
        let directory = try TemporaryDirectory()
        let victim = try directory.victim("notes.txt")
        let before = try FileSnapshot(victim)
        let link = try directory.symlink("controller.sqlite", to: victim)
        for open in [{ _ = try KeyValueStore(path: link) }, { _ = try ControllerStore(path: link) }] {
            let error = #expect(throws: StorageError.self) { try open() }
            guard case .refusedFile(let path, _) = error else {
                Issue.record("unexpected \(String(describing: error))")
                continue
            }
            #expect(path == link)
        }
        #expect(try FileSnapshot(victim) == before)
        #expect(!FileManager.default.fileExists(atPath: victim + "-wal"))
    }

    @Test("a store with a second hard link is refused under either name, unchanged (mode 0644 stays)")
    func storeHardLink() throws {
        let directory = try TemporaryDirectory()
        let original = directory.file("a.sqlite")
        do { _ = try KeyValueStore(path: original).set("k", to: [1], namespace: "n") }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: original)
        let before = try FileSnapshot(original)
        let link = try directory.hardLink("b.sqlite", to: original)
        for path in [original, link] {
            let error = #expect(throws: StorageError.self) { try KeyValueStore(path: path) }
            guard case .refusedFile(let refused, let reason) = error else {
                Issue.record("unexpected \(String(describing: error))")
                continue
            }
            #expect(refused == path)
            #expect(reason.contains("2 hard links"))
        }
        #expect(try FileSnapshot(original) == before)
    }

    @Test("a regular file that is not a database is refused as damaged, its mode (0644) and contents unchanged")
    func notADatabaseKeepsItsMode() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.victim(
            "controller.sqlite", text: String(repeating: "these are not the tables you are looking for\n", count: 100))
        let before = try FileSnapshot(path)
        let error = #expect(throws: StorageError.self) { try ControllerStore(path: path) }
        guard case .storeDamaged(let damaged, let code, _) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(damaged == path)
        #expect(code & 0xFF == 26)
        #expect(error?.description.contains("store damaged: \(path) is not a SQLite database") == true)
        #expect(try FileSnapshot(path) == before)
    }

    @Test("one owner per store file: a second claim through a symbolic link or a hard link is refused")
    func oneOwnerPerFile() throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("a.sqlite")
        do { _ = try KeyValueStore(path: store) }
        let ownership = try StoreOwnership.claim(path: store, holder: "first")
        defer { ownership.release() }
        let symlink = try directory.symlink("b.sqlite", to: store)
        #expect(
            throws: StorageError.refusedFile(
                path: symlink, reason: OwnedFileError.symbolicLink(path: symlink).description)
        ) {
            try StoreOwnership.claim(path: symlink, holder: "second")
        }
        let hardLink = try directory.hardLink("c.sqlite", to: store)
        #expect(throws: StorageError.self) { try StoreOwnership.claim(path: hardLink, holder: "third") }
        #expect(throws: StorageError.self) { try KeyValueStore(path: hardLink) }
        #expect(throws: StorageError.self) { try KeyValueStore(path: symlink) }
    }
}

/// Issue 35, cause 8: a damaged store is refused whole at open (`PRAGMA quick_check`, and every SQLite
/// corruption code as `storeDamaged` naming the path), and nothing is written into it.
@Suite("Damaged stores")
struct DamagedStoreTests {
    /// A store with a few hundred kilobytes in it, closed (its WAL checkpointed into the file).
    static func filledStore(_ path: String, controller: Bool) throws {
        if controller {
            let store = try ControllerStore(path: path)
            try store.createFabric(sampleFabric())
        }
        let store = try KeyValueStore(path: path)
        try store.write { tx in
            for index in 0..<300 { try tx.set("key-\(index)", to: [UInt8](repeating: 7, count: 1000), namespace: "n") }
        }
    }

    @Test("a page overwritten in the middle: the device store is refused at open, naming the path, unchanged")
    func damagedPage() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("device.sqlite")
        try Self.filledStore(path, controller: false)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        try damage(path, at: 40_960, count: 4096)
        let before = try FileSnapshot(path)
        let error = #expect(throws: StorageError.self) { try KeyValueStore(path: path) }
        guard case .storeDamaged(let damaged, _, let detail) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(damaged == path)
        #expect(!detail.isEmpty)
        #expect(error?.description.contains("store damaged: \(path)") == true)
        #expect(try FileSnapshot(path) == before)
    }

    @Test("a damaged controller store is refused before a fabric could be written into it")
    func damagedControllerStore() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("controller.sqlite")
        try Self.filledStore(path, controller: true)
        try damage(path, at: 8192, count: 4096)
        let before = try FileSnapshot(path)
        let error = #expect(throws: StorageError.self) {
            let store = try ControllerStore(path: path)
            _ = try store.createFabricIfAbsent(sampleFabric(fabricID: 2))
        }
        #expect({ if case .storeDamaged = error { true } else { false } }(), "\(String(describing: error))")
        #expect(try FileSnapshot(path) == before)
    }

    @Test("every corruption code is storeDamaged naming the path; other codes stay SQLite errors")
    func corruptionCodes() {
        // SQLITE_CORRUPT, _VTAB, _SEQUENCE, _INDEX; SQLITE_NOTADB.
        for code: Int32 in [11, 267, 523, 779, 26] {
            let error = StorageError.fromSQLite(code: code, message: "m", operation: "reading /x/s.db", path: "/x/s.db")
            #expect(error == .storeDamaged(path: "/x/s.db", code: code, detail: "m, while reading /x/s.db"))
            #expect(error.description.hasPrefix("store damaged: /x/s.db"))
            #expect(error.sqlitePrimaryCode == code & 0xFF)
        }
        for code: Int32 in [5, 13, 10, 14] {
            let error = StorageError.fromSQLite(code: code, message: "m", operation: "o", path: "/x/s.db")
            #expect(error == .sqlite(code: code, message: "m", operation: "o"))
        }
    }
}
