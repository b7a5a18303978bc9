import MatterClusters
import MatterController
import MatterCore
import MatterInteraction
import MatterStorage

/// `matter-emu any read-event-by-id <cluster-id> <event-id> <node> <endpoint>`: chip-tool's generic event
/// read; 0xFFFFFFFF (cluster, event) and 0xFFFF (endpoint) are wildcards.
struct AnyReadEventByIDCommand: CLICommand {
    static var path: [String] { ["any", "read-event-by-id"] }
    static var summary: String { "read events by numeric IDs (0xFFFF / 0xFFFFFFFF are wildcards)" }
    static var options: [OptionSpec] { ControllerOptions.network + [ClusterEventCommands.eventMinOption] }
    static var positionals: [PositionalSpec] {
        [
            .required("cluster-id", "cluster ID, 0xFFFFFFFF for every cluster"),
            .required("event-id", "event ID, 0xFFFFFFFF for every event"),
            .required("node", "node ID or name"),
            .required("endpoint", "endpoint, 0xFFFF for every endpoint"),
        ]
    }
    static var discussion: String {
        "Prints one line per event (JSON lines with --json). A specific event needs a specific cluster."
    }

    let context: ControllerContext
    let output: CLIContext
    let path: EventPathIB
    let node: String
    let eventMin: UInt64?

    init(arguments: ParsedArguments, context: CLIContext) throws {
        let command = Self.pathString
        self.context = try ControllerContext(arguments, command: command)
        output = context
        let cluster: UInt32 = try ParsedArguments.parseUnsigned(
            arguments.positionals[0], what: "<cluster-id>", command: command)
        let event: UInt32 = try ParsedArguments.parseUnsigned(
            arguments.positionals[1], what: "<event-id>", command: command)
        node = arguments.positionals[2]
        let endpoint: UInt16 = try ParsedArguments.parseUnsigned(
            arguments.positionals[3], what: "<endpoint>", command: command)
        guard !(cluster == .max && event != .max) else {
            throw UsageError("a specific <event-id> needs a specific <cluster-id>", command: command)
        }
        path = EventPathIB(
            endpoint: endpoint == .max ? nil : EndpointID(endpoint),
            cluster: cluster == .max ? nil : ClusterID(cluster),
            event: event == .max ? nil : EventID(event))
        eventMin = try arguments.unsigned("event-min", as: UInt64.self)
    }

    func run() async throws -> ExitCode {
        let stored = try context.node(node, in: try context.openStore())
        let (path, eventMin) = (path, eventMin)
        let result = try await context.withController(boundedByTimeout: true) { controller in
            await context.applyAddress(to: controller, node: stored.nodeID)
            return try await controller.readEvents(stored.nodeID, paths: [path], eventMin: eventMin)
        }
        try ClusterEventCommands.print(result, node: stored, output: output)
        return .success
    }
}
