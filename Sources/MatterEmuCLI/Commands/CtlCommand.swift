import Foundation

/// `matter-emu ctl PATH REQUEST`: sends control-plane requests to a device's `--control` socket and
/// prints each JSON answer.
struct CtlCommand: CLICommand {
    static let path = ["ctl"]
    static let summary = "send a JSON request to a device's or fleet's --control socket and print the answer"
    static let options: [OptionSpec] = [
        .value(
            "timeout", "SECONDS",
            "give up (exit 7) when the socket does not accept, or a request is not answered, within SECONDS "
                + "(whole seconds, 1...86400; default \(defaultTimeout))")
    ]
    static let defaultTimeout = 30
    static let positionals: [PositionalSpec] = [
        .required("path", "the Unix socket a device or fleet serves with --control PATH"),
        .required("request", "one JSON request, or '-' to send JSON lines from stdin (docs/CONTROL.md)"),
    ]
    static let discussion = """
        Example: matter-emu ctl /tmp/lamp.sock '{"op":"set","endpoint":1,"cluster":"OnOff","attribute":"OnOff","value":true}'
        Requests (docs/CONTROL.md): get, set, event, jam, hardware-fault, identify, open-window,
        close-window, offline, online, reboot, factory-reset; a fleet's also name their "device" (index
        or node label), and {"op":"devices"} lists them.
        Exits 0 when every answer has "ok": true, 8 when the device refused a request, 7 when the socket
        cannot be reached or does not answer within --timeout (with --json: {"error":{"exitCode":7,...}}),
        2 for an empty request (or no request on stdin).
        """

    let socketPath: String
    let request: String
    let timeout: Int
    let context: CLIContext

    init(arguments: ParsedArguments, context: CLIContext) throws {
        socketPath = arguments.positionals[0]
        request = arguments.positionals[1]
        guard request == "-" || request.contains(where: { !$0.isWhitespace }) else {
            throw UsageError(
                "the request is empty: give one JSON object, or '-' for JSON lines on stdin", command: Self.pathString)
        }
        timeout = try arguments.wholeSeconds("timeout", in: 1...86_400) ?? Self.defaultTimeout
        self.context = context
    }

    func run() async throws -> ExitCode {
        let lines: [String]
        if request == "-" {
            var read: [String] = []
            while let line = readLine() {
                if !line.trimmingCharacters(in: .whitespaces).isEmpty { read.append(line) }
            }
            guard !read.isEmpty else {
                throw UsageError("no request on stdin (every line was empty)", command: Self.pathString)
            }
            lines = read
        } else {
            lines = [request.replacingOccurrences(of: "\n", with: " ")]
        }
        let connection = try ControlConnection(path: socketPath, timeout: timeout)
        defer { connection.close() }
        var allOK = true
        for line in lines {
            let answer = try connection.exchange(line)
            context.output.print(answer)
            let object = try? JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any]
            if object?["ok"] as? Bool != true { allOK = false }
        }
        return allOK ? .success : .status
    }
}
