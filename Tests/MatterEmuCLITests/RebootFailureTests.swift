import Foundation
import MatterTestSupport
import Testing

/// A device whose restart cannot bring it back is never left alive and deaf: the request that asked
/// for it is refused with the reason, and the process exits non-zero having logged why (issue 35,
/// cause 7). The restart fails here because the test PKI directory the device loads its attestation
/// credentials from at every boot is gone.
@Suite struct RebootFailureTests {
    /// A device serving `--control` and `--app-pipe`, with a PKI directory of its own, copied.
    private func device(_ temporary: TemporaryDirectory) async throws -> RunningProcess {
        try FileManager.default.copyItem(atPath: TestPaths.pkiDirectory, toPath: temporary.file("pki"))
        let process = try RunningProcess([
            ProcessRunner.matterEmu.path, "device", "--secured-device-port", "0", "--no-advertise",
            "--state-dir", temporary.path, "--pki-dir", temporary.file("pki"), "--control",
            temporary.file("c.sock"), "--app-pipe", temporary.file("app.fifo"), "--json",
        ])
        guard await process.stdoutLine(within: .seconds(60), where: { _ in true }) != nil else {
            await process.stop()
            throw TestSupportError.timedOut("matter-emu device did not start: \(process.stderr)")
        }
        return process
    }

    @Test func aRebootThatCannotStartTheDeviceEndsTheProcess() async throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-reboot")
        let process = try await device(temporary)
        defer { process.stop() }
        try FileManager.default.removeItem(atPath: temporary.file("pki"))
        let answer = try await ProcessRunner.runMatterEmu(
            ["ctl", temporary.file("c.sock"), #"{"op":"reboot"}"#], limit: .seconds(120))
        #expect(answer.exitCode == 8, "\(answer.stdout) \(answer.stderr)")
        let error = try answer.json()["error"] as? String ?? ""
        #expect(error.contains("reboot failed"), "\(error)")
        #expect(error.contains("starting the device again failed too"), "\(error)")
        let ended = await process.exit(within: .seconds(60))
        #expect(ended?.exitCode == 1, "\(process.stderr)")
        #expect(process.stderr.contains("reboot failed: device start-up failed"), "\(process.stderr)")
        #expect(process.stderr.contains("the device is down"))
        #expect(!FileManager.default.fileExists(atPath: temporary.file("c.sock")))
    }

    /// Another path to a restart: the SDK apps' pipe command, which has no answer at all.
    @Test func aPipeRebootThatFailsEndsTheProcessToo() async throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-reboot")
        let process = try await device(temporary)
        defer { process.stop() }
        try FileManager.default.removeItem(atPath: temporary.file("pki"))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary.file("app.fifo")))
        handle.write(Data(#"{"Name":"PowerOnReboot"}"#.utf8 + [0x0A]))
        try handle.close()
        let ended = await process.exit(within: .seconds(60))
        #expect(ended?.exitCode == 1, "\(process.stderr)")
        #expect(process.stderr.contains("the device is down"), "\(process.stderr)")
        #expect(process.stderr.contains("error: device start-up failed"), "\(process.stderr)")
    }
}
