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
}
