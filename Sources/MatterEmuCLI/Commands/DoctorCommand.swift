import MatterDiscovery

/// `matter-emu doctor`: what mDNS can do on this host (docs/CLI.md): Avahi or the embedded responder,
/// on which interfaces, port 5353 shared or not, multicast coming back, other responders, and what to do.
struct DoctorCommand: CLICommand {
    static let path = ["doctor"]
    static let summary = "check mDNS on this host: Avahi, interfaces, port 5353, multicast, other responders"
    static let options: [OptionSpec] = [
        .value("interface", "NAME", "check one network interface (default: every one up with multicast)"),
        .value(
            "listen", "SECONDS", "how long to listen for the query's echo and other hosts' answers (1...30, default 2)"),
    ]
    static let positionals: [PositionalSpec] = []
    static let discussion = """
        Sends one mDNS query (PTR _matterc._udp.local and _matter._tcp.local) to 224.0.0.251 and ff02::fb on
        the interfaces checked, as a controller browsing for Matter devices would. Exit 0 when nothing is a
        problem, 1 otherwise; every finding with a problem or a warning says what to do.

        examples:
          matter-emu doctor
          matter-emu doctor --interface eth0 --json
        """

    let interface: String?
    let listen: Int
    let context: CLIContext

    init(arguments: ParsedArguments, context: CLIContext) throws {
        interface = arguments.value("interface")
        if let name = interface, MDNSInterface.named(name) == nil {
            throw UsageError("--interface: there is no network interface named \"\(name)\"", command: Self.pathString)
        }
        listen = try arguments.wholeSeconds("listen", in: 1...30) ?? 2
        self.context = context
    }

    func run() async throws -> ExitCode {
        let diagnosis = await MDNSDoctor.diagnose(interface: interface, listen: .seconds(listen))
        if context.json {
            context.output.printJSON(
                .object([
                    ("healthy", .bool(diagnosis.isHealthy)), ("autoBackend", .string(diagnosis.autoBackend.rawValue)),
                    ("interfaces", .array(diagnosis.interfaces.map { .string($0.name) })),
                    ("otherResponders", .array(diagnosis.otherResponders.map { .string($0) })),
                    ("answeringHosts", .array(diagnosis.answeringHosts.map { .string($0) })),
                    (
                        "checks",
                        .array(
                            diagnosis.checks.map { check in
                                .object(
                                    [
                                        ("name", .string(check.name)), ("status", .string(check.status.rawValue)),
                                        ("detail", .string(check.detail)),
                                    ] + (check.advice.map { [("advice", JSONValue.string($0))] } ?? []))
                            })
                    ),
                ]))
        } else {
            var lines: [String] = []
            for check in diagnosis.checks {
                lines.append("\(check.status.rawValue.padded(8)) \(check.name.padded(11)) \(check.detail)")
                if let advice = check.advice, check.status != .ok {
                    lines.append(String(repeating: " ", count: 21) + "→ \(advice)")
                }
            }
            context.output.print(lines.joined(separator: "\n"))
        }
        return diagnosis.isHealthy ? .success : .failure
    }
}
