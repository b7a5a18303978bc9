import MatterClusters
import MatterController
import MatterCore
import MatterStorage

/// `matter-emu describe <node>`: endpoints, device types, clusters, commands and attributes.
struct DescribeCommand: CLICommand {
    static let path = ["describe"]
    static let summary = "show a node's endpoints, device types, clusters, supported commands and attributes"
    static let options = ControllerOptions.network
    static let positionals: [PositionalSpec] = [.required("node", "node ID or name")]
    let context: ControllerContext
    let output: CLIContext
    let node: String

    init(arguments: ParsedArguments, context: CLIContext) throws {
        self.context = try ControllerContext(arguments, command: Self.pathString)
        output = context
        node = arguments.positionals[0]
    }

    func run() async throws -> ExitCode {
        let stored = try context.node(node, in: try context.openStore())
        let description = try await context.withController(boundedByTimeout: true) { controller in
            await context.applyAddress(to: controller, node: stored.nodeID)
            return try await controller.describe(stored.nodeID)
        }
        if output.json {
            output.output.printJSON(
                .object([("node", stored.nodeID.json), ("endpoints", .array(description.endpoints.map(Self.json)))]))
        } else {
            var lines = ["node \(nodeLabel(stored))"]
            for endpoint in description.endpoints { lines += Self.text(endpoint) }
            output.output.print(lines.joined(separator: "\n"))
        }
        return .success
    }

    static func json(_ endpoint: EndpointDescription) -> JSONValue {
        .object([
            ("endpoint", .uint(UInt64(endpoint.endpoint.rawValue))),
            ("deviceTypes", NodesCommand.json(endpoint.deviceTypes)),
            ("parts", .array(endpoint.parts.map { .uint(UInt64($0.rawValue)) })),
            (
                "clusters",
                .array(
                    endpoint.clusters.map { cluster in
                        let schema = ClusterRegistry.standard.cluster(cluster.cluster)
                        return .object([
                            ("cluster", .uint(UInt64(cluster.cluster.rawValue))),
                            ("name", schema.map { .string($0.cliName) } ?? .null),
                            ("featureMap", cluster.featureMap.map { .uint(UInt64($0)) } ?? .null),
                            (
                                "acceptedCommands",
                                .array(
                                    cluster.acceptedCommands.map { command in
                                        .object([
                                            ("id", .uint(UInt64(command.rawValue))),
                                            ("name", schema?.command(command).map { .string($0.cliName) } ?? .null),
                                        ])
                                    })
                            ),
                            (
                                "attributes",
                                .array(
                                    cluster.attributes.map { attribute in
                                        .object([
                                            ("id", .uint(UInt64(attribute.rawValue))),
                                            ("name", schema?.attribute(attribute).map { .string($0.cliName) } ?? .null),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
        ])
    }

    static func text(_ endpoint: EndpointDescription) -> [String] {
        let types = endpoint.deviceTypes.map { "\(DeviceTypeNames.name(of: $0.deviceType)) (rev \($0.revision))" }
        var lines = [
            "endpoint \(endpoint.endpoint.rawValue): "
                + (types.isEmpty ? "(no device type)" : types.joined(separator: ", "))
        ]
        if !endpoint.parts.isEmpty {
            lines.append("  parts: " + endpoint.parts.map { "\($0.rawValue)" }.joined(separator: ", "))
        }
        for cluster in endpoint.clusters {
            let schema = ClusterRegistry.standard.cluster(cluster.cluster)
            let features =
                cluster.featureMap.map { $0 == 0 ? "" : " features 0x\(String($0, radix: 16, uppercase: true))" } ?? ""
            lines.append("  \(schema?.cliName ?? "cluster") (\(shortHex(cluster.cluster.rawValue)))\(features)")
            let commands = cluster.acceptedCommands.map { schema?.command($0)?.cliName ?? shortHex($0.rawValue) }
            if !commands.isEmpty { lines.append("    commands: " + commands.joined(separator: ", ")) }
            let attributes = cluster.attributes.map { schema?.attribute($0)?.cliName ?? shortHex($0.rawValue) }
            if !attributes.isEmpty { lines.append("    attributes: " + attributes.joined(separator: ", ")) }
        }
        return lines
    }
}

/// `0x001D`: at least four hex digits.
func shortHex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
