import Foundation
import MatterTestSupport
import Testing

@testable import MatterStorage

/// The controller store's file: an empty file is refused, a deleted or replaced one is noticed, and
/// SQLite's codes read as what they mean.
@Suite("Store file identity and error messages")
struct StoreFileTests {
    @Test("an existing 0-byte file is refused; a missing one becomes a new store")
    func emptyFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("controller.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let error = #expect(throws: StorageError.self) { try ControllerStore(path: path) }
        #expect(error == .emptyStoreFile(path: path))
        #expect(error?.description.contains("is an empty file") == true)
        try FileManager.default.removeItem(atPath: path)
        _ = try ControllerStore(path: path)
        // Once initialised, it opens again.
        _ = try ControllerStore(path: path)
    }

    @Test("a store notices its file deleted or replaced; an unchanged one passes")
    func identity() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("controller.sqlite")
        let store = try ControllerStore(path: path)
        try store.checkFileUnchanged()
        try FileManager.default.removeItem(atPath: path)
        #expect(throws: StorageError.storeFileChanged(path: path, deleted: true)) { try store.checkFileUnchanged() }

        let second = try ControllerStore(path: path)
        let other = directory.file("other.sqlite")
        _ = try ControllerStore(path: other)
        #expect(rename(other, path) == 0)
        #expect(throws: StorageError.storeFileChanged(path: path, deleted: false)) { try second.checkFileUnchanged() }
        try ControllerStore(database: .inMemory()).checkFileUnchanged()
    }

    @Test(
        "SQLite codes read as what they mean",
        arguments: [
            (Int32(4874), "disk I/O error; errno 28", "the disk is full"),
            (4874, "disk I/O error", "cannot grow the shared-memory file"),
            (13, "database or disk is full", "the disk is full"),
            (778, "disk I/O error; errno 30", "the file system is read-only"),
            (8, "attempt to write a readonly database", "read-only"),
            (26, "file is not a database", "not a database"),
            (11, "database disk image is malformed", "the database is damaged"),
            (1032, "attempt to write a readonly database", "the file was moved or deleted while open"),
        ])
    func messages(code: Int32, message: String, expected: String) {
        let error = StorageError.sqlite(code: code, message: message, operation: "opening /x/controller.sqlite")
        #expect(error.description.contains(expected), "\(error)")
        #expect(error.description.contains("code \(code)"))
        #expect(error.description.hasPrefix("storage error while opening /x/controller.sqlite: \(expected)"))
    }
}
