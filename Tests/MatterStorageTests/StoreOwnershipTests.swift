import Foundation
import MatterTestSupport
import Testing

@testable import MatterStorage

/// One process per store file: the lock beside it.
@Suite("Store ownership lock")
struct StoreOwnershipTests {
    @Test(
        "a child process that inherited the lock's descriptor does not hold the store once it is released",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock")))
    func inheritedDescriptor() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("device.sqlite")
        let ownership = try StoreOwnership.claim(path: path, holder: "test device")
        // A process spawned while the claim is held shares the lock's open file description (as one
        // between fork and exec does); `sleep` keeps it for its life.
        let descriptor = try #require(OpenDescriptors.on(path + ".lock").first)
        let child = try RunningProcess(["/bin/sleep", "60"], inheriting: [descriptor])
        ownership.release()
        // This process claims it again at once, and so can another process, while the child runs.
        let again = try StoreOwnership.claim(path: path, holder: "test device again")
        again.release()
        let probe = try await ProcessRunner.run(
            ["/usr/bin/flock", "-x", "-n", path + ".lock", "true"], limit: .seconds(60))
        #expect(probe.exitCode == 0, "\(probe)")
        #expect(child.isRunning)
        await child.stop()
    }

    @Test("a store held by another process is refused at once, naming the holder the lock file gives")
    func heldByAnotherProcess() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("device.sqlite")
        let holder = try RunningProcess([
            "/bin/sh", "-c",
            "exec 9>>\"$0\"; /usr/bin/flock -x -n 9 || exit 1; echo 'pid 1: other' >&9; echo locked; "
                + "exec sleep 60", path + ".lock",
        ])
        #expect(await holder.stdoutLine(within: .seconds(30)) { _ in true } == "locked")
        let error = #expect(throws: StorageError.self) { try StoreOwnership.claim(path: path, holder: "test") }
        #expect(error == .storeInUse(path: path, holder: "pid 1: other"))
        await holder.stop()
    }
}
