import Foundation
import MatterTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A commissioned node that stopped answering: `--timeout` bounds the whole command, and a closed
/// port (ICMP port unreachable) fails at once with a message that says so. Exit 7 both times.
@Suite("Unreachable nodes")
struct UnreachableNodeTests {
    @Test("a silent node fails within --timeout; a closed port fails as closed")
    func silentAndClosed() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let directory = temporary.path
        let (device, port, state) = try DeviceCommandTests.commissionedPlug(in: directory)
        let address = ["--address", "127.0.0.1:\(port)", "--state-dir", state]

        // Stopped (SIGSTOP): the socket is open, nothing answers.
        device.signal(SIGSTOP)
        let silent = try ProcessRunner.runMatterEmu(["onoff", "on", "1", "--timeout", "2"] + address)
        device.signal(SIGCONT)
        #expect(silent.exitCode == 7, "\(silent.stderr)")
        #expect(silent.stderr.contains("no answer within --timeout 2 s"), "\(silent.stderr)")

        device.stop()
        let closed = try ProcessRunner.runMatterEmu(["onoff", "on", "1", "--json"] + address)
        #expect(closed.exitCode == 7, "\(closed.stderr)")
        let error = try #require(try closed.json()["error"] as? [String: Any])
        #expect((error["message"] as? String)?.contains("the port is closed") == true, "\(closed.stderr)")
    }
}
