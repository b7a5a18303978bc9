import Foundation

/// A `matter-emu device` process on loopback, started with `--json`: running once it printed its
/// onboarding document (`{"event":"started",...,"port":N}`), whose port it reports.
package final class EmuDevice: Sendable {
    /// The process (its stdout: JSON lines; its stderr: logs and the test hook's line).
    package let process: RunningProcess
    /// The UDP port it serves.
    package let port: UInt16

    private init(process: RunningProcess, port: UInt16) {
        self.process = process
        self.port = port
    }

    /// Starts `matter-emu device <arguments> --json` (`environment` added to this process's) and
    /// waits (a hang guard of `limit`) for its onboarding document.
    package static func start(
        _ arguments: [String], environment: [String: String] = [:], limit: Duration = .seconds(60)
    ) async throws -> EmuDevice {
        let process = try RunningProcess(
            [ProcessRunner.matterEmu.path, "device"] + arguments + ["--json"], environment: environment)
        let document = await process.jsonLine(within: limit) { $0["event"] as? String == "started" }
        guard let document,
            let port = (document["port"] as? NSNumber).flatMap({ UInt16(exactly: $0.intValue) })
        else {
            process.signal()
            throw TestSupportError.timedOut(
                "matter-emu device \(arguments.joined(separator: " ")) did not start: \(process.stderr.suffix(600))")
        }
        return EmuDevice(process: process, port: port)
    }

    /// Stops the device (SIGTERM, then SIGKILL after a grace period).
    package func stop() async { await process.stop() }
}
