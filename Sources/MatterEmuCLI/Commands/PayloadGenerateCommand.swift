import MatterCore
import MatterOnboarding

/// `matter-emu payload generate`: a QR payload, a manual code and the QR drawn in the terminal.
struct PayloadGenerateCommand: CLICommand {
    static let path = ["payload", "generate"]
    static let summary = "make the QR payload, manual code and terminal QR code for a device"
    static let options: [OptionSpec] = [
        .value("passcode", "N", "setup passcode, 1...99999998 except trivial values (default 20202021)"),
        .value("discriminator", "N", "12-bit discriminator, 0...4095 (default 3840)"),
        .value("vendor-id", "ID", "vendor ID, decimal or 0x hex (default 0: unspecified)"),
        .value("product-id", "ID", "product ID, decimal or 0x hex (default 0: unspecified)"),
        .value(
            "discovery", "LIST", "comma-separated: on-network, ble, soft-ap, wifi-paf, nfc, thread (default on-network)"
        ),
        .value(
            "flow", "FLOW", "standard, user-intent or custom (default standard); non-standard flows give 21-digit codes"
        ),
        .value("serial-number", "TEXT", "serial number to put in the QR code's optional data"),
        .flag("no-qr", "do not draw the QR code"),
    ]
    static let positionals: [PositionalSpec] = []
    static let discussion = """
        The QR code is drawn with UTF-8 half blocks for light text on a dark terminal.

        example:
          matter-emu payload generate --passcode 20202021 --discriminator 3840 --vendor-id 0xFFF1 --product-id 0x8001
        """

    let payload: SetupPayload
    let drawQR: Bool
    let context: CLIContext

    init(arguments: ParsedArguments, context: CLIContext) throws {
        let discriminator: UInt16 = try arguments.unsigned("discriminator") ?? 3840
        guard discriminator <= SetupDiscriminator.maxLong else {
            throw UsageError("--discriminator \(discriminator) is out of range (0...4095)", command: Self.pathString)
        }
        var payload = SetupPayload(
            vendorID: VendorID(try arguments.unsigned("vendor-id") ?? 0),
            productID: ProductID(try arguments.unsigned("product-id") ?? 0),
            commissioningFlow: try Self.flow(arguments.value("flow")),
            discoveryCapabilities: try Self.capabilities(arguments.value("discovery")),
            discriminator: .long(discriminator),
            passcode: try arguments.unsigned("passcode") ?? 20_202_021)
        if let serial = arguments.value("serial-number") { payload.serialNumber = .string(serial) }
        try payload.validate(.produce)
        self.payload = payload
        drawQR = !arguments.has("no-qr")
        self.context = context
    }

    static func flow(_ text: String?) throws(UsageError) -> CommissioningFlow {
        switch text ?? "standard" {
        case "standard": return .standard
        case "user-intent", "user-action": return .userActionRequired
        case "custom": return .custom
        case let other:
            throw UsageError("unknown --flow '\(other)' (standard, user-intent or custom)", command: pathString)
        }
    }

    static func capabilities(_ text: String?) throws(UsageError) -> DiscoveryCapabilities {
        var caps: DiscoveryCapabilities = []
        for name in (text ?? "on-network").split(separator: ",").map(TextLayout.trimmed) {
            guard let entry = SetupPayloadReport.capabilityTable.first(where: { $0.0 == name }) else {
                throw UsageError(
                    "unknown --discovery '\(name)' (on-network, ble, soft-ap, wifi-paf, nfc, thread)",
                    command: pathString)
            }
            caps.insert(entry.1)
        }
        return caps
    }

    func run() async throws -> ExitCode {
        let qr = try SetupQRCode.encode(payload)
        let manual = try ManualPairingCode.encode(payload)
        if context.json {
            context.output.printJSON(
                .object([
                    ("qrCode", .string(qr)),
                    ("manualCode", .string(manual)),
                    ("manualCodeFormatted", .string(ManualPairingCode.formatted(manual))),
                    ("payload", SetupPayloadReport.json(payload)),
                ]))
            return .success
        }
        var lines = ["QR code payload   \(qr)", "Manual code       \(ManualPairingCode.formatted(manual))"]
        if drawQR, let art = QRCodeRenderer.render(qr) { lines += ["", art] }
        context.output.print(lines.joined(separator: "\n"))
        return .success
    }
}
