import MatterController
import MatterCore
import MatterDiscovery
import MatterOnboarding

/// `matter-emu pairing code <node-id> <payload>`: commission from a QR code or manual code.
struct PairingCodeCommand: CLICommand {
    static let path = ["pairing", "code"]
    static let summary = "commission a device from its QR code (MT:...) or manual code"
    static let options = PairingOptions.specs
    static let positionals: [PositionalSpec] = [
        .required("node-id", "node ID to give the device (or 'auto' for the next free one)"),
        .required("payload", "QR code payload MT:... or 11/21-digit manual code"),
    ]
    static let discussion = """
        The device is found on DNS-SD by the code's discriminator (long from a QR code, short from a
        manual code) and vendor, unless --address says where it is. When several devices match (a
        short discriminator is shared by up to 256 long ones), each is tried in discovery order until
        one takes the passcode; one with another passcode counts a failed PASE attempt. A passcode
        the specification forbids (11111111, 12345678...) is refused before any device is contacted.

        examples:
          matter-emu pairing code 5 MT:-24J0AFN00KA0648G00 --name "Desk lamp" --room Office
          matter-emu pairing code auto 3497-011-2332 --address 192.0.2.7:5540

        \(PairingOptions.discussion)
        """
    let runner: CommissioningRunner
    let payload: SetupPayload

    init(arguments: ParsedArguments, context: CLIContext) throws {
        runner = try CommissioningRunner(arguments, context, command: Self.pathString, nodeID: arguments.positionals[0])
        let parsed = try OnboardingPayloadParser.parse(arguments.positionals[1])
        payload = parsed.payload
        // A code may carry a passcode no device may use (11111111, 12345678...): refused here, as
        // every other pairing command refuses it, rather than spending a device's PASE attempt.
        do { try SetupPasscode.validate(payload.passcode) } catch {
            throw UsageError("<payload>: \(error)", command: Self.pathString)
        }
        if parsed.payloads.count > 1 {
            context.output.progress("note: the QR code holds \(parsed.payloads.count) devices; commissioning the first")
        }
    }

    func run() async throws -> ExitCode { try await runner.run(CommissioningRequest(payload: payload)) }
}

/// `matter-emu pairing onnetwork <node-id> <passcode>`: the first device in commissioning mode.
struct PairingOnNetworkCommand: CLICommand {
    static let path = ["pairing", "onnetwork"]
    static let summary = "commission the first device found in commissioning mode, with its passcode"
    static let options = PairingOptions.specs
    static let positionals: [PositionalSpec] = [
        .required("node-id", "node ID to give the device (or 'auto')"),
        .required("passcode", "setup passcode"),
    ]
    static let discussion = PairingOptions.discussion
    let runner: CommissioningRunner
    let passcode: UInt32

    init(arguments: ParsedArguments, context: CLIContext) throws {
        runner = try CommissioningRunner(arguments, context, command: Self.pathString, nodeID: arguments.positionals[0])
        passcode = try CommissioningRunner.passcode(arguments.positionals[1], command: Self.pathString)
    }

    func run() async throws -> ExitCode {
        try await runner.run(CommissioningRequest(locator: .commissioningMode, passcode: passcode))
    }
}

/// `matter-emu pairing onnetwork-long <node-id> <passcode> <discriminator>`.
struct PairingOnNetworkLongCommand: CLICommand {
    static let path = ["pairing", "onnetwork-long"]
    static let summary = "commission the device with this long discriminator, with its passcode"
    static let options = PairingOptions.specs
    static let positionals: [PositionalSpec] = [
        .required("node-id", "node ID to give the device (or 'auto')"),
        .required("passcode", "setup passcode"),
        .required("discriminator", "long discriminator 0...4095"),
    ]
    static let discussion = PairingOptions.discussion
    let runner: CommissioningRunner
    let passcode: UInt32
    let discriminator: UInt16

    init(arguments: ParsedArguments, context: CLIContext) throws {
        runner = try CommissioningRunner(arguments, context, command: Self.pathString, nodeID: arguments.positionals[0])
        passcode = try CommissioningRunner.passcode(arguments.positionals[1], command: Self.pathString)
        discriminator = try ParsedArguments.parseUnsigned(
            arguments.positionals[2], what: "<discriminator>", command: Self.pathString)
        guard discriminator <= SetupDiscriminator.maxLong else {
            throw UsageError("<discriminator> \(discriminator) is out of range (0...4095)", command: Self.pathString)
        }
    }

    func run() async throws -> ExitCode {
        try await runner.run(
            CommissioningRequest(
                locator: .discriminator(.long(discriminator), vendorID: nil, productID: nil), passcode: passcode))
    }
}

/// `matter-emu pairing already-discovered <node-id> <passcode> <address> <port>`: no DNS-SD at all.
struct PairingAlreadyDiscoveredCommand: CLICommand {
    static let path = ["pairing", "already-discovered"]
    static let summary = "commission the device at this address and port, with its passcode"
    static let options = PairingOptions.specs
    static let positionals: [PositionalSpec] = [
        .required("node-id", "node ID to give the device (or 'auto')"),
        .required("passcode", "setup passcode"),
        .required("address", "IPv4 or IPv6 address (fe80::1%eth0 for link-local)"),
        .required("port", "UDP port (usually 5540)"),
    ]
    static let discussion =
        "example:\n  matter-emu pairing already-discovered 5 20202021 127.0.0.1 5540\n\n" + PairingOptions.discussion
    let runner: CommissioningRunner
    let passcode: UInt32
    let address: DirectAddress

    init(arguments: ParsedArguments, context: CLIContext) throws {
        runner = try CommissioningRunner(arguments, context, command: Self.pathString, nodeID: arguments.positionals[0])
        passcode = try CommissioningRunner.passcode(arguments.positionals[1], command: Self.pathString)
        let host = arguments.positionals[2]
        let port: UInt16 = try ParsedArguments.parseUnsigned(
            arguments.positionals[3], what: "<port>", command: Self.pathString)
        guard port != 0 else { throw UsageError("<port> cannot be 0", command: Self.pathString) }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        do { address = try DirectAddress(parsing: "\(bracketed):\(port)") } catch {
            throw UsageError("<address>: \(error)", command: Self.pathString)
        }
    }

    func run() async throws -> ExitCode {
        try await runner.run(CommissioningRequest(locator: .address(address), passcode: passcode))
    }
}
