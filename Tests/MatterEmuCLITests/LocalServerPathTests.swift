import Foundation
import Glibc
import MatterTestSupport
import Testing

/// A `--control` socket or `--app-pipe` FIFO a live process serves is never taken over, and a device
/// removes only the file it created (issue 35, cause 4).
@Suite struct LocalServerPathTests {
    /// `matter-emu device` on a free port with its own state directory, once it printed its first line.
    private func device(_ directory: String, _ extra: [String]) throws -> RunningProcess {
        let process = try RunningProcess(
            [
                ProcessRunner.matterEmu.path, "device", "--secured-device-port", "0", "--no-advertise", "--state-dir",
                directory, "--json",
            ] + extra)
        guard process.stdoutLine(within: .seconds(60), where: { _ in true }) != nil else {
            process.stop()
            throw TestSupportError.timedOut("matter-emu device did not start: \(process.stderr)")
        }
        return process
    }

    /// A second device given a live device's socket, or its FIFO, exits 2 and names the holder; the
    /// first keeps serving both.
    @Test func aSecondDeviceCannotTakeOverALiveSocketOrPipe() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-owner")
        let socket = temporary.file("c.sock")
        let pipe = temporary.file("app.fifo")
        try FileManager.default.createDirectory(atPath: temporary.file("a"), withIntermediateDirectories: true)
        let first = try device(temporary.file("a"), ["--control", socket, "--app-pipe", pipe])
        defer { first.stop() }

        let sameSocket = try ProcessRunner.runMatterEmu(
            [
                "device", "--secured-device-port", "0", "--no-advertise", "--state-dir", temporary.file("b"),
                "--control", socket,
            ], limit: .seconds(60))
        #expect(sameSocket.exitCode == 2, "\(sameSocket.stderr)")
        #expect(sameSocket.stderr.contains("is served by a running process (pid \(first.pid))"), "\(sameSocket.stderr)")

        let samePipe = try ProcessRunner.runMatterEmu(
            [
                "device", "--secured-device-port", "0", "--no-advertise", "--state-dir", temporary.file("c"),
                "--control", temporary.file("other.sock"), "--app-pipe", pipe,
            ], limit: .seconds(60))
        #expect(samePipe.exitCode == 2, "\(samePipe.stderr)")
        #expect(samePipe.stderr.contains("is read by a running process"), "\(samePipe.stderr)")
        // The refused device removed nothing of its own either: its socket file is gone with it.
        #expect(!FileManager.default.fileExists(atPath: temporary.file("other.sock")))

        let answer = try ProcessRunner.runMatterEmu(
            ["ctl", socket, #"{"op":"get","endpoint":0,"cluster":"BasicInformation","attribute":"VendorID"}"#])
        #expect(answer.exitCode == 0, "\(answer.stdout) \(answer.stderr)")
        #expect(first.isRunning)
        var status = stat()
        #expect(lstat(pipe, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO)
        first.stop()
        #expect(!FileManager.default.fileExists(atPath: socket))
        #expect(!FileManager.default.fileExists(atPath: pipe))
    }

    /// Not a matter-emu holder: a FIFO another program reads is refused too; and a device whose
    /// socket was replaced by someone else's while it ran leaves that one in place when it stops.
    @Test func aForeignReaderIsRefusedAndAReplacedSocketIsNotRemoved() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-owner")
        let pipe = temporary.file("held.fifo")
        #expect(mkfifo(pipe, 0o600) == 0)
        let reader = open(pipe, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(reader >= 0)
        let refused = try ProcessRunner.runMatterEmu(
            [
                "device", "--secured-device-port", "0", "--no-advertise", "--state-dir", temporary.file("a"),
                "--app-pipe", pipe,
            ], limit: .seconds(60))
        close(reader)
        #expect(refused.exitCode == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("is read by a running process"), "\(refused.stderr)")
        var status = stat()
        #expect(lstat(pipe, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO)

        let socket = temporary.file("c.sock")
        let running = try device(temporary.file("b"), ["--control", socket])
        defer { running.stop() }
        // Someone removes the socket and serves their own at the path.
        unlink(socket)
        let replacement = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(replacement) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in socket.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(replacement, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        var before = stat()
        #expect(lstat(socket, &before) == 0)
        #expect(running.stop()?.exitCode == 0)
        var after = stat()
        #expect(lstat(socket, &after) == 0, "the device removed a socket it did not create")
        #expect(after.st_ino == before.st_ino)
    }
}

/// The control plane outlives descriptor exhaustion (issue 35, cause 5): accepting pauses, is logged
/// once, and resumes when descriptors are free.
@Suite struct ControlDescriptorExhaustionTests {
    @Test func controlSocketKeepsAcceptingAfterEMFILE() async throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-emfile")
        let socket = temporary.file("c.sock")
        let limit = 64
        let process = try RunningProcess([
            "/bin/sh", "-c", "ulimit -n \(limit) && exec \"$0\" \"$@\"", ProcessRunner.matterEmu.path, "device",
            "--secured-device-port", "0", "--no-advertise", "--state-dir", temporary.path, "--control", socket,
            "--json",
        ])
        defer { process.stop() }
        try #require(await process.stdoutLine(within: .seconds(60), where: { _ in true }) != nil, "\(process.stderr)")
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.pid)/fd").count
        try #require(open < limit)
        // More clients than descriptors left: the last ones wait in the listen backlog.
        var clients: [UnixSocketClient] = []
        for _ in 0..<(limit - open + 8) { clients.append(try UnixSocketClient(socket)) }
        let exhausted = await eventually(within: .seconds(20)) {
            process.stderr.contains("cannot accept a client (Too many open files)")
        }
        #expect(exhausted, "\(process.stderr)")
        for client in clients { client.close() }
        let answer = try await ProcessRunner.runMatterEmu(
            ["ctl", socket, #"{"op":"get","endpoint":0,"cluster":"BasicInformation","attribute":"VendorID"}"#],
            limit: .seconds(60))
        #expect(answer.exitCode == 0, "\(answer.stdout) \(answer.stderr) \(process.stderr)")
        #expect(process.stderr.components(separatedBy: "cannot accept a client").count == 2, "logged once")
        #expect(process.stderr.contains("accepting clients again"))
        #expect(process.isRunning)
    }
}
