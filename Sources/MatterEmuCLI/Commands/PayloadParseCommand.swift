import MatterOnboarding

/// `matter-emu payload parse <code>`: every field of a QR payload or manual pairing code.
struct PayloadParseCommand: CLICommand {
    static let path = ["payload", "parse"]
    static let summary = "decode a QR payload (MT:...) or an 11/21-digit manual pairing code"
    static let options: [OptionSpec] = []
    static let positionals: [PositionalSpec] = [
        .required("code", "an MT: QR payload (several joined by '*') or a manual code, dashes allowed")
    ]
    static let discussion = """
        Fields are decoded as written; a code whose values a commissioner would refuse (for example a
        trivial passcode) still decodes, and the problem is shown as 'Valid: no: ...' ("valid": false in JSON).

        examples:
          matter-emu payload parse MT:-24J0AFN00KA0648G00
          matter-emu payload parse 3497-011-2332 --json
        """

    let code: String
    let context: CLIContext

    init(arguments: ParsedArguments, context: CLIContext) throws {
        code = arguments.positionals[0]
        self.context = context
    }

    func run() async throws -> ExitCode {
        let parsed = try OnboardingPayloadParser.parse(code)
        let manual: String? =
            parsed.format == .qrCode && parsed.payloads.count == 1
            ? try? ManualPairingCode.encode(parsed.payload, validating: false) : nil
        if context.json {
            var members: [(String, JSONValue)] = [
                ("format", .string(parsed.format == .qrCode ? "qr" : "manual")),
                ("payloads", .array(parsed.payloads.map(SetupPayloadReport.json))),
            ]
            if let manual { members.append(("manualCode", .string(manual))) }
            context.output.printJSON(.object(members))
            return .success
        }
        var lines: [String] = []
        lines.append(TextLayout.field("Format", parsed.format == .qrCode ? "QR code payload" : "manual pairing code"))
        for (index, payload) in parsed.payloads.enumerated() {
            if parsed.payloads.count > 1 { lines.append("Payload \(index + 1) of \(parsed.payloads.count)") }
            lines += SetupPayloadReport.text(payload)
        }
        if let manual {
            lines.append(TextLayout.field("Manual code", ManualPairingCode.formatted(manual)))
        }
        context.output.print(lines.joined(separator: "\n"))
        return .success
    }
}
