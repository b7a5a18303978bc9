import Foundation
import MatterTestSupport

/// A `matter-emu device` or `fleet` process serving `--http 127.0.0.1:0` (and `--control`) in a
/// temporary directory; its port read from the first `--json` line.
final class HTTPProcess {
    private let temporary: TemporaryDirectory
    let process: RunningProcess
    let port: UInt16
    let url: String
    let socket: String

    init(_ arguments: [String], http: [String] = ["--http", "127.0.0.1:0"]) async throws {
        temporary = try TemporaryDirectory(prefix: "matter-emu-http")
        socket = temporary.path + "/c.sock"
        process = try RunningProcess(
            [ProcessRunner.matterEmu.path] + arguments + [
                arguments.first == "fleet" ? "--base-port" : "--secured-device-port", "0", "--no-advertise",
                "--state-dir", temporary.path, "--control", socket, "--json",
            ] + http)
        guard let first = await process.jsonLine(within: .seconds(60), where: { $0["http"] != nil }),
            let url = first["http"] as? String, let components = URLComponents(string: url),
            let port = components.port.flatMap({ UInt16(exactly: $0) })
        else {
            throw TestSupportError.timedOut("matter-emu \(arguments.joined(separator: " ")): \(process.stderr)")
        }
        self.port = port
        self.url = url
    }

    /// One request to the server.
    func request(_ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil)
        async throws -> HTTPTestResponse
    {
        try await HTTPTestClient.request(port: port, method, path, headers: headers, body: body)
    }

    /// The `value` of an attribute of endpoint 1 as the API reads it.
    func value(_ device: Int, _ cluster: String, _ attribute: String, endpoint: Int = 1) async throws -> Any? {
        let answer = try await request(
            "GET", "/api/devices/\(device)/endpoints/\(endpoint)/clusters/\(cluster)/attributes/\(attribute)")
        return try answer.json()["value"]
    }

    /// The control plane's answer to `request` (through `matter-emu ctl`, not HTTP).
    func ctl(_ request: String) async throws -> [String: Any] {
        try await ProcessRunner.runMatterEmu(["ctl", socket, request]).json()
    }

    deinit { process.stop() }
}
