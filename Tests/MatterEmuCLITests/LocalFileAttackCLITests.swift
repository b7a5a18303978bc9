import Foundation
import MatterStorage
import MatterTestSupport
import Testing

/// Issue 35 causes 1, 2, 3 and 8 through the command line: each refusal exits 9 naming the path,
/// and the file that was not ours, or was damaged, is left exactly as it was.
@Suite("matter-emu: links, foreign and damaged state files")
struct LocalFileAttackCLITests {
    static func device(_ kvs: String, _ directory: String) throws -> ProcessResult {
        try ProcessRunner.runMatterEmu(
            ["device", "--secured-device-port", "0", "--no-advertise", "--state-dir", directory, "--KVS", kvs],
            limit: .seconds(60))
    }

    @Test("a symbolic link at <KVS>.lock: the device exits 9 and the link's target is neither written nor emptied")
    func deviceLockSymlink() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let victim = try temporary.victim("victim.txt")
        let before = try FileSnapshot(victim)
        let kvs = temporary.file("device.sqlite")
        let link = try temporary.symlink("device.sqlite.lock", to: victim)
        let result = try Self.device(kvs, temporary.path)
        #expect(result.exitCode == 9, "\(result.stderr)")
        #expect(result.stderr.contains("\(link) is a symbolic link"), "\(result.stderr)")
        #expect(try FileSnapshot(victim) == before)
    }

    @Test("a symbolic link at the Home API's commissioning lock: pairing exits 9, the target untouched")
    func pairingLockSymlink() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let victim = try temporary.victim("victim.txt")
        let before = try FileSnapshot(victim)
        let state = temporary.file("state")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
        let lock = state + "/controller.sqlite.home-commissioning.lock"
        try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: victim)
        let result = try ProcessRunner.runMatterEmu([
            "pairing", "already-discovered", "9", "20202021", "127.0.0.1", "9", "--state-dir", state,
        ])
        #expect(result.exitCode == 9, "\(result.stderr)")
        #expect(result.stderr.contains("\(lock) is a symbolic link"), "\(result.stderr)")
        #expect(try FileSnapshot(victim) == before)
    }

    @Test("--KVS a symbolic link to another file: exit 9, that file's mode (0644) and contents unchanged")
    func kvsSymlink() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let victim = try temporary.victim("notes.txt")
        let before = try FileSnapshot(victim)
        let link = try temporary.symlink("device.sqlite", to: victim)
        let result = try Self.device(link, temporary.path)
        #expect(result.exitCode == 9, "\(result.stderr)")
        #expect(result.stderr.contains("\(link) is a symbolic link"), "\(result.stderr)")
        #expect(try FileSnapshot(victim) == before)
    }

    @Test("controller.sqlite hard-linked to another file: nodes exits 9, the file's mode and contents unchanged")
    func controllerStoreHardLink() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let victim = try temporary.victim("notes.txt")
        let before = try FileSnapshot(victim)
        let state = temporary.file("state")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
        try FileManager.default.linkItem(atPath: victim, toPath: state + "/controller.sqlite")
        let result = try ProcessRunner.runMatterEmu(["nodes", "--state-dir", state])
        #expect(result.exitCode == 9, "\(result.stderr)")
        #expect(result.stderr.contains("\(state)/controller.sqlite has 2 hard links"), "\(result.stderr)")
        #expect(try FileSnapshot(victim) == before)
    }

    @Test("a running device's state file through a symbolic link or a hard link: the second device exits 9")
    func oneOwnerThroughLinks() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let kvs = temporary.file("a.sqlite")
        let (first, started) = try DeviceCommandTests.startDevice(
            ["--secured-device-port", "0", "--KVS", kvs], directory: temporary.path)
        defer { first.stop() }
        #expect(started["event"] as? String == "started")
        let symlink = try temporary.symlink("b.sqlite", to: kvs)
        let viaSymlink = try Self.device(symlink, temporary.path)
        #expect(viaSymlink.exitCode == 9, "\(viaSymlink.stderr)")
        #expect(viaSymlink.stderr.contains("\(symlink) is a symbolic link"), "\(viaSymlink.stderr)")
        let hardLink = try temporary.hardLink("c.sqlite", to: kvs)
        let viaHardLink = try Self.device(hardLink, temporary.path)
        #expect(viaHardLink.exitCode == 9, "\(viaHardLink.stderr)")
        #expect(viaHardLink.stderr.contains("has 2 hard links"), "\(viaHardLink.stderr)")
        #expect(first.isRunning)
    }

    @Test("a damaged device store: exit 9 'store damaged' naming it, the file unchanged, also with --factory-reset")
    func damagedDeviceStore() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let kvs = temporary.file("device.sqlite")
        do {
            let store = try KeyValueStore(path: kvs)
            try store.write { tx in
                for index in 0..<100 {
                    try tx.set("key-\(index)", to: [UInt8](repeating: 7, count: 1000), namespace: "n")
                }
            }
        }  // closed: the WAL is checkpointed into the file
        #expect(!FileManager.default.fileExists(atPath: kvs + "-wal"))
        try damage(kvs, at: 40_960, count: 4096)
        let before = try FileSnapshot(kvs)
        for extra in [[], ["--factory-reset"]] {
            // A device that started would run until the limit: the assertion on the exit code catches it.
            let result = try ProcessRunner.runMatterEmu(
                ["device", "--secured-device-port", "0", "--no-advertise", "--state-dir", temporary.path, "--KVS", kvs]
                    + extra, limit: .seconds(60))
            #expect(result.exitCode == 9, "\(result.stderr)")
            #expect(result.stderr.contains("store damaged: \(kvs)"), "\(result.stderr)")
        }
        #expect(try FileSnapshot(kvs) == before)
    }

    @Test("a controller store that is not a database: pairing exits 9 before anything is written into it")
    func damagedControllerStore() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let state = temporary.file("state")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
        let store = try temporary.victim("state/controller.sqlite", text: String(repeating: "garbage ", count: 1000))
        let before = try FileSnapshot(store)
        let result = try ProcessRunner.runMatterEmu([
            "pairing", "already-discovered", "9", "20202021", "127.0.0.1", "9", "--state-dir", state,
        ])
        #expect(result.exitCode == 9, "\(result.stderr)")
        #expect(result.stderr.contains("store damaged: \(store) is not a SQLite database"), "\(result.stderr)")
        #expect(try FileSnapshot(store) == before)
    }
}
