import Foundation
import MatterCore
import MatterDataModel
import MatterDevice
import MatterDiscovery
import MatterOnboarding

/// `matter-emu fleet`: many virtual devices in one process.
struct FleetCommand: CLICommand {
    static let path = ["fleet"]
    static let summary = "run many virtual devices in one process until interrupted"
    static let options: [OptionSpec] =
        [
            .value("count", "N", "number of devices (with --type)"),
            .value("type", "TYPE", "device type of every device (default dimmable-light)"),
            .value(
                "config", "FILE",
                "JSON: {\"groups\": [{\"type\": ..., \"count\": N, \"name\": ...}], \"basePort\": 5540} (every key checked; \"dump\": FILE instead of \"type\": twins of a recorded device)"
            ),
            .value(
                "base-port", "PORT", "UDP port of the first device; the others follow (default 5540; 0: any free port)"),
            .value(
                "base-discriminator", "N", "discriminator of the first device (default 3840); see below for the others"),
            .value("seed", "N", "seed of the passcodes (default 20202021); with --shard, of every identity"),
            FleetShardOption.shardSpec,
            FleetShardOption.portsSpec,
            .value("KVS", "PATH", "the fleet's state file (default <state-dir>/fleet.sqlite)"),
            .value("state-dir", "DIR", "default directory for state files"),
            .value("pki-dir", "DIR", "test PKI directory (default: the repository's fixtures/pki)"),
            .flag("factory-reset", "forget stored fabrics and attributes first"),
            .flag("no-advertise", "do not publish DNS-SD records"),
            .flag("probe", "probe DNS-SD names first (Avahi services) instead of raw records"),
            MDNSOption.spec,
            .value(
                "control", "PATH", "serve the fleet's control plane on this Unix socket (requests name a \"device\")"),
            .value(
                "app-pipe", "FIFO", "take the SDK example apps' JSON commands (with a \"device\") on this named pipe"),
        ] + SimulationOptions.options + WebOptions.options
    static let positionals: [PositionalSpec] = []
    /// Without --mdns, a fleet of more devices than this publishes through the embedded responder: avahi-daemon
    /// files every record of every service in lists it walks one by one, so a fleet costs it O(n^2) (a fleet of
    /// 1,000 took it 27 s of CPU to advertise; docs/BENCHMARKS.md), while at 100 it is a fraction of a second.
    static let embeddedMDNSAbove = 100
    static let discussion = """
        Each device gets its own port, discriminator, passcode, DAC (issued by the test PAI at start) and
        namespace in the shared state file. Prints one row per device (or one JSON document), then one
        line per state change prefixed with the device's index.

        Discriminators: device 16q + r gets (base + 256 r + q) mod 4096, so the first 16 devices have
        different short discriminators (the upper 4 bits, all a manual code carries) and each of their
        manual codes finds one device; from device 16 on short discriminators repeat (a manual code
        then matches several devices, and commissioning tries each), while the long discriminators
        (QR codes) of the first 4096 devices all differ. With the default base 3840: 3840, 0, 256,
        512, ..., 3584, then 3841, 1, 257, ...

        --mdns: without it, a fleet of up to \(embeddedMDNSAbove) devices publishes through the Avahi daemon and a
        larger one through the embedded responder (Avahi's cost grows with the square of the services it holds).

        Each device's socket is an open file: the fleet first raises its soft RLIMIT_NOFILE limit to the
        hard one, and exits 1 before starting any device when the hard limit is below the count + 64.

        --control PATH: one socket for the fleet; every request names its device, "device": 3 (index) or
        "device": "Kitchen 2" (node label), and {"op":"devices"} lists them (docs/CONTROL.md).

        --script and --time-scale apply to every device (docs/SCRIPTS.md); a group of --config can carry
        "scripts" of its own.

        --shard I/N (a fleet past one machine, docs/SCALE-OUT.md): this process runs shard I of N shards of
        the same size, and device i of shard I (global index g = I×count + i) gets a discriminator, passcode,
        port, serial number, unique ID and DAC key derived from --seed, I and i: discriminator as above for
        g (distinct while N×count ≤ 4096), a passcode of its own across every shard (a keyed permutation of
        the valid passcodes, never a disallowed one), port base + g (--shard-ports disjoint) or base + i
        (same). `matter-emu fleet codes --seed S --shards N --count M` prints every code without asking a
        shard. --shard hostname/N takes I from the host name's last number (a StatefulSet pod's ordinal).

        --http [ADDR:]PORT: the fleet's dashboard (search, filter, paging), JSON API, event stream and
        /metrics (docs/HTTP.md); off loopback a Bearer token is required (--http-token, or one made and printed).
        """

    let configuration: Fleet.Configuration
    let context: CLIContext
    let controlPath: String?
    let appPipePath: String?
    let web: WebOptions?
    /// How the user named the state file's place, for messages.
    let stateOption: String
    /// Said on start when the fleet's size chose the embedded mDNS responder.
    var sizeNote: String?

    init(arguments: ParsedArguments, context: CLIContext) throws {
        var groups: [Fleet.Group] = []
        var basePort: UInt16? = try arguments.unsigned("base-port")
        if let path = arguments.value("config") {
            let file = try FleetConfigFile(path: path, command: Self.pathString)
            groups = file.groups
            if basePort == nil { basePort = file.basePort }
        } else {
            guard let count: UInt32 = try arguments.unsigned("count"), count > 0 else {
                throw UsageError("give --count N (with --type) or --config FILE", command: Self.pathString)
            }
            groups = [Fleet.Group(type: arguments.value("type") ?? "dimmable-light", count: Int(count))]
        }
        let total = groups.reduce(0) { $0 + $1.count }
        let stateDir = StateDirectory.resolve(arguments.value("state-dir"))
        var configuration = Fleet.Configuration(
            groups: groups, storagePath: arguments.value("KVS") ?? "\(stateDir)/fleet.sqlite",
            pkiDirectory: StateDirectory.pki(arguments.value("pki-dir")))
        configuration.basePort = basePort ?? 5540
        if configuration.basePort != 0, Int(configuration.basePort) + total > 65536 {
            throw UsageError(
                "--base-port \(configuration.basePort) leaves no room for \(total) devices", command: Self.pathString)
        }
        configuration.baseDiscriminator = try arguments.unsigned("base-discriminator") ?? 3840
        configuration.passcodeSeed = try arguments.unsigned("seed") ?? 20_202_021
        configuration.advertise = !arguments.has("no-advertise")
        configuration.dnssdPublishing = arguments.has("probe") ? .probedServices : .rawRecords
        if let backend = try MDNSOption.parse(arguments, command: Self.pathString) {
            configuration.mdns = backend
        } else if total > Self.embeddedMDNSAbove, configuration.advertise {
            configuration.mdns = .embedded
            sizeNote =
                "a fleet of \(total) devices advertises through the embedded mDNS responder "
                + "(more than \(Self.embeddedMDNSAbove); --mdns avahi for the Avahi daemon)"
        }
        configuration.factoryReset = arguments.has("factory-reset")
        if let text = arguments.value("shard") {
            let shard = try FleetShardOption.parseShard(text, command: Self.pathString)
            configuration.layout = try FleetShardOption.layout(
                seed: configuration.passcodeSeed, shards: shard.count, countPerShard: total,
                basePort: configuration.basePort, baseDiscriminator: configuration.baseDiscriminator,
                ports: try FleetShardOption.parsePorts(arguments, command: Self.pathString), command: Self.pathString)
            configuration.shard = shard.index
        } else if arguments.value("shard-ports") != nil {
            throw UsageError("--shard-ports needs --shard I/N", command: Self.pathString)
        }
        let simulation = try SimulationOptions(arguments: arguments, command: Self.pathString)
        configuration.scripts = simulation.scripts
        configuration.timeScale = simulation.timeScale
        self.configuration = configuration
        self.context = context
        stateOption = arguments.value("KVS") != nil ? "--KVS" : "--state-dir"
        controlPath = arguments.value("control")
        appPipePath = arguments.value("app-pipe")
        web = try WebOptions(arguments: arguments, command: Self.pathString)
    }

    func run() async throws -> ExitCode {
        let signals = SignalWaiter()
        try StateDirectory.create(holding: configuration.storagePath, option: stateOption)
        if let sizeNote { context.output.progress(sizeNote) }
        for twin in configuration.groups.compactMap(\.twin) {
            for warning in twin.warnings { context.output.progress("warning: dump: \(warning)") }
            context.output.progress(TwinFile.testDeviceNote(twin))
        }
        let fleet = try await Fleet.start(configuration)
        let control: ControlSocket?
        let pipe: AppPipe?
        do {
            control = try controlPath.map { path throws(DeviceError) in
                try ControlSocket(path: path) { line in await fleet.control(line) }
            }
        } catch {
            await fleet.stop()
            throw error
        }
        do {
            pipe = try appPipePath.map { path throws(DeviceError) in
                try AppPipe(path: path) { line in await fleet.appPipeCommand(line) }
            }
        } catch {
            control?.close()
            await fleet.stop()
            throw error
        }
        let server: WebServer?
        do {
            server = try web.map { options throws(DeviceError) in
                try WebServer(options, nodes: WebNodes(hosts: fleet.hosts, isFleet: true) { await fleet.control($0) })
            }
        } catch {
            control?.close()
            pipe?.close()
            await fleet.stop()
            throw error
        }
        var rows: [JSONValue] = []
        let layout = configuration.layout
        var lines = [FleetDeviceRow.header(sharded: layout != nil)]
        for (index, host) in fleet.hosts.enumerated() {
            let device = host.device
            var row = FleetDeviceRow(
                index: index, type: device.configuration.deviceType, port: device.port,
                discriminator: device.configuration.discriminator, payload: device.setupPayload)
            if let layout {
                row.shard = (configuration.shard, configuration.shard * layout.countPerShard + index)
                row.serialNumber = device.configuration.serialNumber
                row.uniqueID = device.configuration.uniqueID
            }
            rows.append(try row.json())
            lines.append(try row.line())
            let output = context.output
            let json = context.json
            host.onDeviceEvent { event in
                server?.publish(device: index, event)
                output.print(
                    json
                        ? JSONValue.object([("device", .int(Int64(index)))] + DeviceEventJSON.fields(event))
                            .serialized(pretty: false) : "[\(index)] \(event)")
            }
        }
        if context.json {
            context.output.print(
                JSONValue.object(
                    [("devices", .array(rows))] + (server.map { [("http", .string($0.dashboardURL))] } ?? [])
                )
                .serialized(pretty: false))
        } else {
            if let server { lines.append("dashboard: \(server.dashboardURL)") }
            context.output.print(lines.joined(separator: "\n"))
        }
        // A device whose reboot cannot bring it back ends the fleet (its host logged why).
        for (index, host) in fleet.hosts.enumerated() {
            host.onFailure { error in signals.stop(because: FleetDeviceFailure(index: index, error: error)) }
        }
        let failure = await signals.wait()
        server?.stop()
        control?.close()
        pipe?.close()
        await fleet.stop()
        if let failure { throw failure }
        return .success
    }
}

extension String {
    /// Pads with spaces to `width` characters.
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}

/// A fleet device that went down (a restart failed and so did starting it as it was): the fleet exits
/// with the device's error class.
struct FleetDeviceFailure: Error, CustomStringConvertible, ExitCodeProviding {
    let index: Int
    let error: DeviceError

    var description: String { "device \(index): \(error)" }
    var exitCode: ExitCode { error.exitCode }
}
