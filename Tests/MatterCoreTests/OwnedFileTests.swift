import Foundation
import MatterTestSupport
import Testing

@testable import MatterCore

#if canImport(Glibc)
    import Glibc
#endif

/// The one way the project opens its own files: no link followed, nothing of someone else's changed.
@Suite("Owned files")
struct OwnedFileTests {
    @Test("a symbolic link where the file should be is refused, and its target is not touched")
    func symbolicLink() throws {
        let directory = try TemporaryDirectory()
        let victim = try directory.victim("victim.txt")
        let before = try FileSnapshot(victim)
        let link = try directory.symlink("x.lock", to: victim)
        for create in [false, true] {
            #expect(throws: OwnedFileError.symbolicLink(path: link)) { try OwnedFile.open(link, create: create) }
        }
        #expect(throws: OwnedFileError.symbolicLink(path: link)) { try OwnedFile.inspect(link) }
        // A dangling link is not created through either.
        let dangling = try directory.symlink("y.lock", to: directory.file("nothing-here"))
        #expect(throws: OwnedFileError.symbolicLink(path: dangling)) { try OwnedFile.open(dangling, create: true) }
        #expect(!FileManager.default.fileExists(atPath: directory.file("nothing-here")))
        #expect(try FileSnapshot(victim) == before)
    }

    @Test("a file with a second hard link is refused, under either name")
    func hardLink() throws {
        let directory = try TemporaryDirectory()
        let victim = try directory.victim("victim.txt")
        let before = try FileSnapshot(victim)
        let link = try directory.hardLink("x.lock", to: victim)
        #expect(throws: OwnedFileError.hardLinked(path: link, links: 2)) { try OwnedFile.open(link, create: true) }
        #expect(throws: OwnedFileError.hardLinked(path: victim, links: 2)) { try OwnedFile.inspect(victim) }
        #expect(try FileSnapshot(victim) == before)
        let error = OwnedFileError.hardLinked(path: link, links: 2)
        #expect(error.description.contains(link) && error.description.contains("2 hard links"))
    }

    @Test("a FIFO or a directory is refused without blocking")
    func notRegular() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.file("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: OwnedFileError.notRegularFile(path: fifo)) { try OwnedFile.open(fifo, access: .read) }
        #expect(throws: OwnedFileError.notRegularFile(path: fifo)) { try OwnedFile.open(fifo, create: true) }
        let folder = directory.file("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect(throws: OwnedFileError.self) { try OwnedFile.open(folder, access: .read) }
    }

    @Test("created tells who made the file; a mode is set only on a file this process created")
    func createdAndMode() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("new.lock")
        let made = try OwnedFile.open(path, create: true, mode: 0o600)
        #expect(made.created)
        #expect(try FileSnapshot(path).permissions == 0o600)
        made.close()
        let existing = try directory.victim("old.lock", text: "", permissions: 0o644)
        let opened = try OwnedFile.open(existing, create: true, mode: 0o600)
        #expect(!opened.created)
        #expect(try FileSnapshot(existing).permissions == 0o644)
        #expect(try OwnedFile.inspect(existing)?.mode == 0o644)
        #expect(try OwnedFile.inspect(directory.file("missing")) == nil)
        #expect(throws: OwnedFileError.system(errno: ENOENT, operation: "opening \(directory.file("missing"))")) {
            try OwnedFile.open(directory.file("missing"))
        }
    }

    @Test("contents are replaced only in a file this process created or one that holds its own record")
    func replaceContents() throws {
        let directory = try TemporaryDirectory()
        let foreign = try directory.victim("foreign.lock", text: "not a lock record\n")
        let file = try OwnedFile.open(foreign, create: true)
        #expect(!file.replaceContents(with: Array("pid 1\n".utf8)) { $0.starts(with: Array("pid ".utf8)) })
        #expect(try String(contentsOfFile: foreign, encoding: .utf8) == "not a lock record\n")
        let record = try directory.victim("record.lock", text: "pid 77: old\n")
        let ours = try OwnedFile.open(record, create: true)
        #expect(ours.replaceContents(with: Array("pid 1\n".utf8)) { $0.starts(with: Array("pid ".utf8)) })
        #expect(try String(contentsOfFile: record, encoding: .utf8) == "pid 1\n")
    }

    @Test("setMode changes only the file it was told about, never through a link")
    func setMode() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.victim("store.db", permissions: 0o644)
        let identity = try #require(try OwnedFile.inspect(path)).identity
        let victim = try directory.victim("victim.txt")
        let link = try directory.symlink("link.db", to: victim)
        #expect(!OwnedFile.setMode(0o600, path: link, ifStill: identity))
        #expect(try FileSnapshot(victim).permissions == 0o644)
        let other = try directory.victim("other.db", permissions: 0o644)
        #expect(!OwnedFile.setMode(0o600, path: other, ifStill: identity))
        #expect(try FileSnapshot(other).permissions == 0o644)
        #expect(OwnedFile.setMode(0o600, path: path, ifStill: identity))
        #expect(try FileSnapshot(path).permissions == 0o600)
    }
}
