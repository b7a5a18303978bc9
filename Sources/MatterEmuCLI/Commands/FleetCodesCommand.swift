import MatterCore
import MatterDataModel
import MatterDevice
import MatterOnboarding

/// `matter-emu fleet codes`: every code of a sharded fleet, computed, no shard asked.
struct FleetCodesCommand: CLICommand {
    static let path = ["fleet", "codes"]
    static let summary = "print every device's codes of a sharded fleet (fleet --shard I/N), computed from the seed"
    static let options: [OptionSpec] = [
        .value("shards", "N", "number of shards"),
        .value("count", "M", "devices per shard (with --type)"),
        .value("type", "TYPE", "device type of every device (default dimmable-light)"),
        .value("config", "FILE", "the shards' --config file instead of --count and --type"),
        .value("seed", "N", "the shards' --seed (default 20202021)"),
        .value("base-port", "PORT", "the shards' --base-port (default 5540)"),
        .value("base-discriminator", "N", "the shards' --base-discriminator (default 3840)"),
        FleetShardOption.portsSpec,
        .value("shard", "I", "print only shard I"),
    ]
    static let positionals: [PositionalSpec] = []
    static let discussion = """
        Give the options the shards run with: the same --seed, --count or --config, --base-port,
        --base-discriminator and --shard-ports, and --shards N for their --shard I/N. Prints one row per
        device (shard, global index, index, type, port, discriminator, passcode, manual code, QR code), or with
        --json {"devices": [...]} whose rows are the ones a shard prints at start, with its serial number and
        unique ID. docs/SCALE-OUT.md.

        example:
          matter-emu fleet codes --seed 7 --shards 2 --count 3 --json
        """

    let layout: FleetLayout
    let types: [String]
    let only: Int?
    let context: CLIContext

    init(arguments: ParsedArguments, context: CLIContext) throws {
        let command = Self.pathString
        var types: [String] = []
        var basePort: UInt16? = try arguments.unsigned("base-port")
        if let path = arguments.value("config") {
            guard arguments.value("count") == nil, arguments.value("type") == nil else {
                throw UsageError("give --config FILE or --count M (with --type), not both", command: command)
            }
            let file = try FleetConfigFile(path: path, command: command)
            types = file.groups.flatMap { Array(repeating: $0.type, count: $0.count) }
            if basePort == nil { basePort = file.basePort }
        } else {
            guard let count: UInt32 = try arguments.unsigned("count"), count > 0 else {
                throw UsageError("give --count M (devices per shard) or --config FILE", command: command)
            }
            guard count <= 65_535 else {
                throw UsageError("--count \(count): a shard holds at most 65535 devices", command: command)
            }
            types = Array(repeating: arguments.value("type") ?? "dimmable-light", count: Int(count))
        }
        for type in Set(types) {
            do {
                _ = try DevicePreset(cliName: type)
            } catch {
                throw UsageError("\(error)", command: command)
            }
        }
        guard let shards: UInt32 = try arguments.unsigned("shards"), shards > 0 else {
            throw UsageError("give --shards N, the number of shards (1 or more)", command: command)
        }
        layout = try FleetShardOption.layout(
            seed: try arguments.unsigned("seed") ?? 20_202_021, shards: Int(shards), countPerShard: types.count,
            basePort: basePort ?? 5540, baseDiscriminator: try arguments.unsigned("base-discriminator") ?? 3840,
            ports: try FleetShardOption.parsePorts(arguments, command: command), command: command)
        if let shard: UInt32 = try arguments.unsigned("shard") {
            guard shard < shards else {
                throw UsageError(
                    "--shard \(shard) does not exist in \(shards) (shards are 0...\(shards - 1))",
                    command: command)
            }
            only = Int(shard)
        } else {
            only = nil
        }
        self.types = types
        self.context = context
    }

    func run() async throws -> ExitCode {
        var productIDs: [String: ProductID] = [:]
        for type in Set(types) { productIDs[type] = try DevicePreset(cliName: type).productID }
        var rows: [JSONValue] = []
        var lines = [FleetDeviceRow.header(sharded: true)]
        for shard in only.map({ [$0] }) ?? Array(0..<layout.shards) {
            for identity in try layout.identities(shard: shard) {
                let type = types[identity.index]
                var row = FleetDeviceRow(
                    index: identity.index, type: type, port: identity.port, discriminator: identity.discriminator,
                    payload: identity.setupPayload(productID: productIDs[type] ?? ProductID(0)))
                row.shard = (shard, identity.globalIndex)
                row.serialNumber = identity.serialNumber
                row.uniqueID = identity.uniqueID
                if context.json { rows.append(try row.json()) } else { lines.append(try row.line()) }
            }
        }
        if context.json {
            context.output.print(JSONValue.object([("devices", .array(rows))]).serialized(pretty: false))
        } else {
            context.output.print(lines.joined(separator: "\n"))
        }
        return .success
    }
}
