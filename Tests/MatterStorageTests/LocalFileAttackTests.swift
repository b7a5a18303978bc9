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
