import MatterController
import MatterCore
import MatterOnboarding
import MatterStorage

/// `matter-emu pairing open-commissioning-window <node>`: a new code for a second administrator.
struct PairingOpenCommissioningWindowCommand: CLICommand {
    static let path = ["pairing", "open-commissioning-window"]
    static let summary = "open an enhanced commissioning window on a node and print its new codes"
    static let options =
        ControllerOptions.network + [
            .value("window-timeout", "SECONDS", "how long the window stays open, 180...900 (default 180)"),
            .value("iterations", "N", "PBKDF2 iterations of the new verifier, 1000...100000 (default 1000)"),
            .value("discriminator", "N", "discriminator to advertise, 0...4095 (default random)"),
            .flag("no-qr", "do not draw the QR code"),
        ]
    static let positionals: [PositionalSpec] = [.required("node", "node ID or name")]
    static let discussion = """
        A new random passcode is chosen here; only its PAKE verifier is sent (timed invoke of
        AdministratorCommissioning.OpenCommissioningWindow). Another controller can then commission
        the node onto its own fabric with the printed QR or manual code.
        """
    let context: ControllerContext
    let output: CLIContext
    let node: String
    let timeout: UInt16
    let iterations: UInt32
    let discriminator: UInt16?
    let drawQR: Bool

    init(arguments: ParsedArguments, context: CLIContext) throws {
        self.context = try ControllerContext(arguments, command: Self.pathString)
        output = context
        node = arguments.positionals[0]
        timeout = try arguments.unsigned("window-timeout") ?? 180
        guard (180...900).contains(timeout) else {
            throw UsageError("--window-timeout \(timeout) is out of range (180...900)", command: Self.pathString)
        }
        iterations = try arguments.unsigned("iterations") ?? 1000
        guard (1000...100_000).contains(iterations) else {
            throw UsageError("--iterations \(iterations) is out of range (1000...100000)", command: Self.pathString)
        }
        discriminator = try arguments.unsigned("discriminator")
        if let discriminator, discriminator > SetupDiscriminator.maxLong {
            throw UsageError("--discriminator \(discriminator) is out of range (0...4095)", command: Self.pathString)
        }
        drawQR = !arguments.has("no-qr")
    }

    func run() async throws -> ExitCode {
        let stored = try context.node(node, in: try context.openStore())
        let window = try await context.withController { controller in
            await context.applyAddress(to: controller, node: stored.nodeID)
            return try await controller.openCommissioningWindow(
                stored.nodeID, timeout: timeout, iterations: iterations, discriminator: discriminator)
        }
        if output.json {
            output.output.printJSON(
                .object([
                    ("node", stored.nodeID.json), ("qrCode", .string(window.qrCode)),
                    ("manualCode", .string(window.manualCode)),
                    ("manualCodeFormatted", .string(ManualPairingCode.formatted(window.manualCode))),
                    ("timeoutSeconds", .uint(UInt64(window.timeoutSeconds))),
                    ("payload", SetupPayloadReport.json(window.payload)),
                ]))
            return .success
        }
        var lines = [
            "commissioning window open on node \(nodeLabel(stored)) for \(window.timeoutSeconds) s",
            "QR code payload   \(window.qrCode)",
            "Manual code       \(ManualPairingCode.formatted(window.manualCode))",
        ]
        if drawQR, let art = QRCodeRenderer.render(window.qrCode) { lines += ["", art] }
        output.output.print(lines.joined(separator: "\n"))
        return .success
    }
}

/// `matter-emu pairing unpair <node>` (also `matter-emu unpair <node>`).
struct PairingUnpairCommand: CLICommand {
    static let path = ["pairing", "unpair"]
    static let summary = "remove this controller's fabric from a node, then forget the node"
    static let options =
        ControllerOptions.network + [
            .flag("force", "forget the node even if it cannot be reached or refuses")
        ]
    static let positionals: [PositionalSpec] = [.required("node", "node ID or name")]
    let context: ControllerContext
    let output: CLIContext
    let node: String
    let force: Bool

    init(arguments: ParsedArguments, context: CLIContext) throws {
        self.context = try ControllerContext(arguments, command: Self.pathString)
        output = context
        node = arguments.positionals[0]
        force = arguments.has("force")
    }

    func run() async throws -> ExitCode {
        let stored = try context.node(node, in: try context.openStore())
        try await context.withController { controller in
            await context.applyAddress(to: controller, node: stored.nodeID)
            try await controller.unpair(stored.nodeID, force: force)
        }
        if output.json {
            output.output.printJSON(.object([("node", stored.nodeID.json), ("unpaired", .bool(true))]))
        } else {
            output.output.print("node \(nodeLabel(stored)) unpaired")
        }
        return .success
    }
}

/// `matter-emu unpair <node>`: the same as `pairing unpair`.
struct UnpairCommand: CLICommand {
    static let path = ["unpair"]
    static let summary = "the same as 'pairing unpair'"
    static let options = PairingUnpairCommand.options
    static let positionals = PairingUnpairCommand.positionals
    let command: PairingUnpairCommand

    init(arguments: ParsedArguments, context: CLIContext) throws {
        command = try PairingUnpairCommand(arguments: arguments, context: context)
    }

    func run() async throws -> ExitCode { try await command.run() }
}
