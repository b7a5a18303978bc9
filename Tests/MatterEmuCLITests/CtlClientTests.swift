import Foundation
import Glibc
import MatterTestSupport
import Testing

/// `matter-emu ctl` never waits forever and says what went wrong (issue 35, cause 6).
@Suite struct CtlClientTests {
    /// A Unix socket that listens (with `backlog`) but never accepts or answers.
    private final class SilentServer {
        let fd: Int32
        init(_ path: String, backlog: Int32) throws {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard bound == 0, listen(fd, backlog) == 0 else { throw TestSupportError.timedOut("bind \(path)") }
        }
        deinit { close(fd) }
    }

    @Test func aSocketThatNeverAnswersEndsWithinTheTimeout() async throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-ctl")
        let path = temporary.file("silent.sock")
        let server = try SilentServer(path, backlog: 8)
        let result = try await ProcessRunner.runMatterEmu(
            ["ctl", "--timeout", "1", path, #"{"op":"devices"}"#], limit: .seconds(60))
        withExtendedLifetime(server) {}
        #expect(!result.timedOut)
        #expect(result.exitCode == 7, "\(result.stderr)")
        #expect(result.stderr.contains("did not answer within --timeout 1 s"), "\(result.stderr)")
    }

    @Test func aSocketWhoseBacklogIsFullEndsWithinTheTimeoutWithJSON() async throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-ctl")
        let path = temporary.file("full.sock")
        let server = try SilentServer(path, backlog: 0)
        // Fill the backlog (a Unix socket takes backlog + 1 pending connections).
        let filler = try UnixSocketClient(path)
        defer { filler.close() }
        let result = try await ProcessRunner.runMatterEmu(
            ["ctl", "--json", "--timeout", "1", path, #"{"op":"devices"}"#], limit: .seconds(60))
        withExtendedLifetime(server) {}
        #expect(!result.timedOut)
        #expect(result.exitCode == 7, "\(result.stderr)")
        let error = try result.json()["error"] as? [String: Any]
        #expect(error?["exitCode"] as? Int == 7)
        #expect((error?["message"] as? String)?.contains("did not accept the connection within") == true)
    }

    @Test func ctlJSONReportsAConnectionFailure() throws {
        let result = try ProcessRunner.runMatterEmu([
            "ctl", "--json", NSTemporaryDirectory() + "no-such-matter-emu.sock", #"{"op":"devices"}"#,
        ])
        #expect(result.exitCode == 7)
        let error = try result.json()["error"] as? [String: Any]
        #expect(error?["exitCode"] as? Int == 7)
        #expect((error?["message"] as? String)?.contains("cannot connect to") == true)
    }

    @Test(arguments: [[""], ["   "], ["\t \n"], ["-"]])
    func emptyRequestsAreUsageErrors(request: [String]) throws {
        // `-` reads stdin, which is /dev/null here: no request at all.
        let result = try ProcessRunner.runMatterEmu(
            ["ctl", NSTemporaryDirectory() + "no-such-matter-emu.sock"] + request, limit: .seconds(60))
        #expect(result.exitCode == 2, "\(result.stderr)")
        #expect(result.stderr.contains("empty") || result.stderr.contains("no request on stdin"))
    }

    @Test(arguments: ["0", "0.5", "-3", "ten"])
    func timeoutWantsWholeSeconds(value: String) throws {
        let result = try ProcessRunner.runMatterEmu(["ctl", "--timeout", value, "/nonexistent.sock", "{}"])
        #expect(result.exitCode == 2)
        #expect(
            result.stderr.contains("--timeout expects whole seconds, 1...86400, got '\(value)'"), "\(result.stderr)")
    }
}
