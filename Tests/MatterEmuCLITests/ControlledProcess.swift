import Foundation
import Glibc
import MatterTestSupport

/// A `matter-emu device` or `fleet` process serving `--control` (and `--app-pipe`) in a temporary
/// directory, driven through `matter-emu ctl` as a user would.
final class ControlledProcess {
    private let temporary: TemporaryDirectory
    let directory: String
    let socket: String
    let pipe: String
    private let process: RunningProcess

    /// Starts `matter-emu <arguments> --control <socket> --app-pipe <pipe> --json` and waits for its
    /// first line (printed once the socket and the pipe exist).
    /// With `stale`, a FIFO and a socket file nobody serves are left at both paths first, as a
    /// killed device leaves them.
    init(_ arguments: [String], stale: Bool = false) throws {
        temporary = try TemporaryDirectory(prefix: "matter-emu-cp")
        directory = temporary.path
        let socket = directory + "/c.sock"
        self.socket = socket
        pipe = directory + "/app.fifo"
        if stale {
            mkfifo(pipe, 0o600)
            let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in socket.utf8.enumerated() { raw[index] = byte }
            }
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            close(fd)  // the file stays: a stale socket
        }
        process = try RunningProcess(
            [ProcessRunner.matterEmu.path] + arguments + [
                arguments.first == "fleet" ? "--base-port" : "--secured-device-port", "0", "--no-advertise",
                "--state-dir", directory, "--control", socket,
                "--app-pipe", pipe, "--json",
            ])
        guard process.stdoutLine(within: .seconds(60), where: { _ in true }) != nil else {
            throw TestSupportError.timedOut("matter-emu \(arguments.joined(separator: " ")): \(process.stderr)")
        }
    }

    /// What the process logged so far.
    var stderr: String { process.stderr }

    /// Sends one request through `matter-emu ctl`: its exit code and JSON answer.
    func ctl(_ request: String) throws -> (exitCode: Int32, answer: [String: Any]) {
        let result = try ProcessRunner.runMatterEmu(["ctl", socket, request])
        return (result.exitCode, try result.json())
    }

    /// The `value` a `get` answers.
    func get(_ endpoint: Int, _ cluster: String, _ attribute: String, device: Int? = nil) throws -> Any? {
        let target = device.map { #","device":\#($0)"# } ?? ""
        let request =
            #"{"op":"get","endpoint":\#(endpoint),"cluster":"\#(cluster)","attribute":"\#(attribute)"\#(target)}"#
        return try ctl(request).answer["value"]
    }

    /// Writes one command to the app pipe, as an SDK test harness does (open, write, close).
    /// What the device printed so far (its `--json` lines).
    var output: String { process.stdout }

    func writePipe(_ command: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: pipe))
        handle.write(Data((command + "\n").utf8))
        try handle.close()
    }

    /// Polls `condition` (a pipe command has no answer) up to about five seconds.
    func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        try eventuallyBlocking(within: .seconds(5), every: .milliseconds(50), condition)
    }

    deinit { process.stop() }
}
