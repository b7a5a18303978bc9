import Dispatch
import Foundation
import MatterCore
import MatterDataModel
import MatterDevice
import MatterDiscovery
import MatterOnboarding
import MatterTransport

/// `matter-emu device`: runs one virtual device until interrupted.
struct DeviceCommand: CLICommand {
    /// Every device type of the catalogue, as `--type` takes it (`on-off-plug` stays an alias of
    /// `on-off-plug-in-unit`).
    static let typeList = DevicePreset.all.map { $0 == .dimmableLight ? "\($0.cliName) (default)" : $0.cliName }
        .joined(separator: ", ")

    static let path = ["device"]
    static let summary = "run a virtual Matter device (commissionable over IP) until interrupted"
    static let options: [OptionSpec] =
        [
            .value("type", "TYPE", DeviceCommand.typeList),
            .value(
                "bridged", "TYPE:COUNT,...",
                "with --type aggregator (bridge): the bridged devices, on endpoints 2, 3, ... (docs/BRIDGES.md)"),
            .value(
                "from-dump", "FILE",
                "a twin of a recorded device: its endpoints, clusters and values from a node dump (Home Assistant's, python-matter-server's or `matter-emu node dump`'s; docs/TWINS.md)"
            ),
            .value("discriminator", "N", "12-bit discriminator (default 3840)"),
            .value("passcode", "N", "setup passcode (default 20202021)"),
            .value("secured-device-port", "PORT", "UDP port (default 5540; 0 picks a free port)"),
            .value("KVS", "PATH", "the device's state file (default <state-dir>/device-<port>.sqlite)"),
            .value("state-dir", "DIR", "default directory for state files"),
            .value("vendor-id", "ID", "vendor ID (default 0xFFF1, the test PKI's)"),
            .value("product-id", "ID", "product ID (default: the device type's, 0x8000 + its device-type ID)"),
            .value(
                "name", "TEXT",
                "node label and DNS-SD device name (at most 32 bytes of UTF-8; no control, bidi or zero-width characters)"
            ),
            .value("pbkdf-iterations", "N", "PBKDF2 iterations of the passcode verifier (default 1000)"),
            .value("interface", "NAME", "bind to one network interface"),
            .value("pki-dir", "DIR", "test PKI directory (default: the repository's fixtures/pki)"),
            .flag("factory-reset", "forget stored fabrics and attributes first"),
            .flag("no-advertise", "do not publish DNS-SD records (direct addressing only)"),
            .flag("probe", "probe DNS-SD names first (Avahi services, ~0.9 s) instead of raw records"),
            MDNSOption.spec,
            .value("drop", "P", "fault injection: drop probability per datagram, 0...1"),
            .value("duplicate", "P", "fault injection: duplicate probability"),
            .value("delay", "P", "fault injection: delay probability (50 ms)"),
            .value("fault-seed", "N", "fault injection seed (default 1)"),
            .value(
                "control", "PATH",
                "serve the control plane (JSON lines, docs/CONTROL.md) on this Unix socket (one a running process serves: exit 2)"
            ),
            .value(
                "app-pipe", "FIFO",
                "take the connectedhomeip example apps' JSON commands on this named pipe (one a running process reads: exit 2)"
            ),
            .value("stats-interval", "SECONDS", "print counters (drops by reason, sessions, memory) every SECONDS"),
            .value("mrp-idle-interval", "MS", "MRP idle interval the device advertises (SII, default 500)"),
            .value("mrp-active-interval", "MS", "MRP active interval the device advertises (SAI, default 300)"),
            .value(
                "fail-safe-expiry", "SECONDS",
                "fail-safe a PASE session arms, and the one it suggests to commissioners (default 60)"),
            .value(
                "max-paths-per-invoke", "N",
                "commands one InvokeRequest may carry (BasicInformation MaxPathsPerInvoke, 1...65535; default 1)"),
        ] + SimulationOptions.options + WebOptions.options
    static let positionals: [PositionalSpec] = []
    static let discussion = """
        Prints the QR code, its payload and the manual code, then one line per state change. Stop with
        Ctrl-C (SIGINT) or SIGTERM. With --json: an onboarding document, then JSON lines of events.
        --stats-interval adds a line of counters every interval and a final one on exit ({"event":"stats",...}
        with --json). --control PATH serves the control plane over a Unix socket (get/set any attribute, events,
        reboot, offline/online, factory-reset, commissioning windows, identify, jam; see `matter-emu ctl`
        and docs/CONTROL.md). --app-pipe FIFO takes the SDK example apps' pipe commands (SendDoorLockAlarm,
        HardwareFaultChange, SoftwareReset, switch presses...; SetDoorState is refused: no type here has a
        door sensor). Both survive a reboot. --script moves an attribute over time (a sensor following a sine,
        a ramp, a random walk, steps or a CSV series) and --time-scale runs simulated processes faster
        (docs/SCRIPTS.md). --http [ADDR:]PORT serves a dashboard, a JSON
        API over the same control plane, an event stream and /metrics (docs/HTTP.md); off loopback it asks for
        a Bearer token (--http-token, or one made and printed). Types made of other device types have their
        parts on further endpoints (a refrigerator's cabinet on endpoint 2). Cameras, doorbells and intercoms
        allocate streams and keep WebRTC sessions, but emulate no audio or video stream.
        """

    /// `--bridged on-off-light:20,temperature-sensor:10` as (type, count) pairs, every type a device type that
    /// can be bridged; `--type` must be the Aggregator.
    static func bridged(_ text: String, type: String) throws(UsageError) -> [(type: String, count: Int)] {
        func fail(_ why: String) -> UsageError { UsageError("--bridged \(text): \(why)", command: pathString) }
        guard (try? DevicePreset(cliName: type))?.isBridge == true else {
            throw fail("the bridged devices need --type aggregator (or bridge), not \(type)")
        }
        var result: [(type: String, count: Int)] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, let name = parts.first.map(String.init), !name.isEmpty else {
                throw fail("\"\(item)\" is not TYPE or TYPE:COUNT")
            }
            let count = parts.count == 2 ? Int(parts[1]) : 1
            guard let count, (1...997).contains(count) else { throw fail("\"\(item)\": COUNT must be 1...997") }
            let preset: DevicePreset
            do {
                preset = try DevicePreset(cliName: name)
            } catch {
                throw fail("\(error)")
            }
            guard !preset.isBridge else { throw fail("a bridge bridges devices, not another bridge") }
            result.append((preset.cliName, count))
        }
        let total = result.reduce(0) { $0 + $1.count }
        guard total <= 997 else { throw fail("at most 997 bridged devices, not \(total)") }
        return result
    }

    let configuration: VirtualDeviceConfiguration
    let context: CLIContext
    let statsInterval: Double?
    let controlPath: String?
    let appPipePath: String?
    let web: WebOptions?
    /// How the user named the state file's place, for messages.
    let stateOption: String

    init(arguments: ParsedArguments, context: CLIContext) throws {
        let type = arguments.value("type") ?? "dimmable-light"
        let port: UInt16 = try arguments.unsigned("secured-device-port") ?? 5540
        let stateDir = StateDirectory.resolve(arguments.value("state-dir"))
        var configuration = VirtualDeviceConfiguration(
            deviceType: type, storagePath: arguments.value("KVS") ?? "\(stateDir)/device-\(port).sqlite",
            pkiDirectory: StateDirectory.pki(arguments.value("pki-dir")))
        configuration.port = port
        configuration.discriminator = try arguments.unsigned("discriminator") ?? 3840
        guard configuration.discriminator <= 0xFFF else {
            throw UsageError(
                "--discriminator \(configuration.discriminator) is out of range (0...4095)", command: Self.pathString)
        }
        configuration.passcode = try arguments.unsigned("passcode") ?? 20_202_021
        do {
            try SetupPasscode.validate(configuration.passcode)
        } catch {
            throw UsageError("\(error)", command: Self.pathString)
        }
        configuration.vendorID = try arguments.unsigned("vendor-id", as: UInt16.self).map(VendorID.init)
        configuration.productID = try arguments.unsigned("product-id", as: UInt16.self).map(ProductID.init)
        configuration.name = arguments.value("name")
        configuration.pbkdfIterations = try arguments.unsigned("pbkdf-iterations") ?? 1000
        guard (1000...100_000).contains(configuration.pbkdfIterations) else {
            throw UsageError("--pbkdf-iterations must be 1000...100000", command: Self.pathString)
        }
        configuration.failSafeExpirySeconds = try arguments.unsigned("fail-safe-expiry") ?? 60
        guard (1...900).contains(configuration.failSafeExpirySeconds) else {
            throw UsageError("--fail-safe-expiry must be 1...900 seconds", command: Self.pathString)
        }
        configuration.maxPathsPerInvoke = try arguments.unsigned("max-paths-per-invoke") ?? 1
        guard configuration.maxPathsPerInvoke >= 1 else {
            throw UsageError("--max-paths-per-invoke must be 1...65535", command: Self.pathString)
        }
        configuration.interface = arguments.value("interface")
        if let name = configuration.interface, if_nametoindex(name) == 0 {
            throw UsageError("--interface: there is no network interface named \"\(name)\"", command: Self.pathString)
        }
        if let file = arguments.value("from-dump") {
            for option in ["type", "bridged", "product-id", "vendor-id"] where arguments.value(option) != nil {
                throw UsageError(
                    "--from-dump serves the recorded device as it is: --\(option) does not go with it",
                    command: Self.pathString)
            }
            configuration.twin = try TwinFile.read(file, command: Self.pathString)
        }
        configuration.factoryReset = arguments.has("factory-reset")
        try SimulationOptions(arguments: arguments, command: Self.pathString).apply(to: &configuration)
        if let text = arguments.value("bridged") {
            configuration.bridged = try Self.bridged(text, type: type)
        }
        configuration.advertise = !arguments.has("no-advertise")
        configuration.dnssdPublishing = arguments.has("probe") ? .probedServices : .rawRecords
        configuration.mdns = try MDNSOption.parse(arguments, command: Self.pathString) ?? .avahi
        func probability(_ name: String) throws(UsageError) -> Double {
            guard let text = arguments.value(name) else { return 0 }
            guard let p = Double(text), (0...1).contains(p) else {
                throw UsageError("--\(name) expects a probability 0...1, got '\(text)'", command: Self.pathString)
            }
            return p
        }
        configuration.faults = FaultInjection(
            drop: try probability("drop"), duplicate: try probability("duplicate"),
            delay: try probability("delay"),
            seed: try arguments.unsigned("fault-seed") ?? 1)
        configuration.mrp.idleInterval = try arguments.unsigned("mrp-idle-interval") ?? configuration.mrp.idleInterval
        configuration.mrp.activeInterval =
            try arguments.unsigned("mrp-active-interval") ?? configuration.mrp.activeInterval
        for (name, value) in [("idle", configuration.mrp.idleInterval), ("active", configuration.mrp.activeInterval)]
        where !(1...3_600_000).contains(value) {
            throw UsageError("--mrp-\(name)-interval must be 1...3600000 ms", command: Self.pathString)
        }
        if let point = try TestKillHook.requestedPoint(
            known: DeviceCheckpoint.allCases.map(\.rawValue), command: Self.pathString)
        {
            configuration.checkpoint = { reached in if reached.rawValue == point { TestKillHook.die(at: point) } }
        }
        configuration.storageNamespace = "device"
        statsInterval = try arguments.value("stats-interval").map { text throws(UsageError) in
            guard let seconds = Double(text), seconds >= 0.1, seconds <= 86_400 else {
                throw UsageError(
                    "--stats-interval expects seconds, 0.1...86400, got '\(text)'", command: Self.pathString)
            }
            return seconds
        }
        stateOption = arguments.value("KVS") != nil ? "--KVS" : "--state-dir"
        controlPath = arguments.value("control")
        appPipePath = arguments.value("app-pipe")
        web = try WebOptions(arguments: arguments, command: Self.pathString)
        self.configuration = configuration
        self.context = context
    }

    /// The type the start line names: the catalogue's, or `twin of VVVV/PPPP` for a twin.
    var deviceTypeName: String {
        guard let twin = configuration.twin else { return configuration.deviceType }
        return "twin of \(TwinFile.hex4(twin.vendorID.rawValue))/\(TwinFile.hex4(twin.productID.rawValue))"
    }

    func run() async throws -> ExitCode {
        let signals = SignalWaiter()
        try StateDirectory.create(holding: configuration.storagePath, option: stateOption)
        let host = try await DeviceHost.start(configuration)
        let device = host.device
        // The socket and the pipe exist before the first line is printed, so a script may connect once
        // it reads it. Both belong to the host: they keep working across a `reboot`.
        let control: ControlSocket?
        let pipe: AppPipe?
        do {
            control = try controlPath.map { path throws(DeviceError) in
                try ControlSocket(path: path) { line in await host.control(line) }
            }
        } catch {
            await host.stop()
            throw error
        }
        do {
            pipe = try appPipePath.map { path throws(DeviceError) in
                try AppPipe(path: path) { line in await host.appPipeCommand(line) }
            }
        } catch {
            control?.close()
            await host.stop()
            throw error
        }
        let server: WebServer?
        do {
            server = try web.map { options throws(DeviceError) in
                try WebServer(options, nodes: WebNodes(hosts: [host], isFleet: false) { await host.control($0) })
            }
        } catch {
            control?.close()
            pipe?.close()
            await host.stop()
            throw error
        }
        let output = context.output
        if let twin = configuration.twin {
            for warning in twin.warnings { output.progress("warning: dump: \(warning)") }
            output.progress(TwinFile.testDeviceNote(twin))
        }
        let payload = device.setupPayload
        let qr = try SetupQRCode.encode(payload)
        let manual = try ManualPairingCode.encode(payload)
        let json = context.json
        if json {
            output.print(
                JSONValue.object(
                    [
                        ("event", .string("started")), ("qrCode", .string(qr)), ("manualCode", .string(manual)),
                        ("port", .uint(UInt64(device.port))), ("deviceType", .string(deviceTypeName)),
                        ("discriminator", .uint(UInt64(configuration.discriminator))),
                        ("commissionable", .bool(await device.isCommissionable())),
                    ] + (server.map { [("http", .string($0.dashboardURL))] } ?? [])
                ).serialized(pretty: false))
        } else {
            var lines: [String] = []
            if await device.isCommissionable(), let art = QRCodeRenderer.render(qr) { lines.append(art) }
            lines.append("QR code payload   \(qr)")
            lines.append("Manual code       \(ManualPairingCode.formatted(manual))")
            lines.append(
                "Device            \(deviceTypeName) on UDP port \(device.port), state \(configuration.storagePath)"
            )
            if let server { lines.append("Dashboard         \(server.dashboardURL)") }
            for fabric in await device.fabrics() {
                lines.append(
                    "Fabric            \(fabric.index): fabric ID \(fabric.fabricID), node ID \(fabric.nodeID)")
            }
            output.print(lines.joined(separator: "\n"))
        }
        host.onDeviceEvent { event in
            server?.publish(device: 0, event)
            if json {
                output.print(JSONValue.object(DeviceEventJSON.fields(event)).serialized(pretty: false))
            } else {
                output.print(event.description)
            }
        }
        let stats = statsInterval.map {
            DeviceStatsReporter(host: host, intervalSeconds: $0, output: output, json: json)
        }
        stats?.start()
        // A reboot that cannot bring the device back ends the process (the host logged why).
        host.onFailure { error in signals.stop(because: error) }
        let failure = await signals.wait()
        server?.stop()
        control?.close()
        pipe?.close()
        await host.stop()
        // After the stop, so that it is the last line and counts the ShutDown it sent.
        await stats?.finish()
        if let failure { throw failure }
        return .success
    }
}

extension DeviceError: ExitCodeProviding {
    var exitCode: ExitCode {
        switch self {
        case .invalidConfiguration: .usage
        case .storage: .storage
        case .attestation, .startup, .descriptorLimit: .failure
        }
    }
}
