import MatterClusters
import MatterController
import MatterCore
import MatterInteraction
import MatterStorage
import MatterTLV

/// The generic commands of every cluster of the model (chip-tool's grammar): `<cluster> read`, `write`,
/// `subscribe`, `read-event`, `subscribe-event` and one command per request the cluster accepts.
enum ClusterAttributeCommands {
    /// Every cluster's commands, except where a hand-written command has the same words.
    static func all(except taken: Set<[String]>) -> [CommandSpec] {
        ClusterRegistry.standard.clusters.flatMap { schema in
            ([
                ClusterReadCommand.spec(schema), ClusterWriteCommand.spec(schema), ClusterSubscribeCommand.spec(schema),
                ClusterReadEventCommand.spec(schema), ClusterSubscribeEventCommand.spec(schema),
            ] + ClusterInvokeCommand.specs(schema)).filter { !taken.contains($0.path) }
        }
    }

    /// Clusters of the node (Basic Information, Access Control, the commissioning and diagnostics clusters)
    /// live on the root endpoint: their commands default to endpoint 0.
    static func defaultEndpoint(_ cluster: ClusterID) -> EndpointID {
        ClusterRegistry.standard.cluster(cluster)?.classification == .node ? .root : EndpointID(1)
    }

    /// The attribute named `text` (name or number); unknown numbers are allowed with no schema.
    static func attribute(_ text: String, in schema: ClusterSchema, command: String) throws
        -> (id: AttributeID, schema: AttributeSchema?)
    {
        do {
            let attribute = try schema.requireAttribute(named: text)
            return (attribute.id, attribute)
        } catch {
            if let number = ControllerContext.number(text), let id = UInt32(exactly: number) {
                return (AttributeID(id), nil)
            }
            let near = ModelCommands.nearest(text, among: schema.allAttributes.map(\.cliName))
            let hint = near.isEmpty ? "" : " (nearest: \(near.joined(separator: ", ")))"
            throw UsageError("\(error)\(hint)", command: command)
        }
    }

    /// The endpoint argument, or the cluster's default.
    static func endpoint(_ arguments: ParsedArguments, index: Int, cluster: ClusterID, command: String) throws
        -> EndpointID
    {
        arguments.positionals.count > index
            ? try ControllerContext.endpoint(arguments.positionals[index], command: command) : defaultEndpoint(cluster)
    }

    static func attributeList(_ schema: ClusterSchema) -> String {
        schema.allAttributes.map(\.cliName).joined(separator: ", ")
    }
}

/// `matter-emu <cluster> read <attribute> <node> [<endpoint>]`.
struct ClusterReadCommand: RunnableCommand {
    static func spec(_ schema: ClusterSchema) -> CommandSpec {
        var path: [String] { [schema.cliName, "read"] }
        var summary: String { "read an attribute of the \(schema.name) cluster" }
        var options: [OptionSpec] { ControllerOptions.network }
        var positionals: [PositionalSpec] {
            [
                .required(
                    "attribute",
                    "attribute name (\(schema.attribute(AttributeID(0))?.cliName ?? "e.g. cluster-revision")) or ID"),
                .required("node", "node ID or name"),
                .optional(
                    "endpoint", "endpoint (default \(ClusterAttributeCommands.defaultEndpoint(schema.id).rawValue))"),
            ]
        }
        var discussion: String {
            "attributes: \(ClusterAttributeCommands.attributeList(schema))\n\n"
                + "A null value prints null; an attribute the node does not have ends with exit code 8."
        }
        return CommandSpec(
            path: path, summary: summary, options: options, positionals: positionals,
            discussion: discussion, group: schema.cliName
        ) { try Self(arguments: $0, context: $1, schema: schema) }
    }

    let schema: ClusterSchema
    let context: ControllerContext
    let output: CLIContext
    let attribute: (id: AttributeID, schema: AttributeSchema?)
    let node: String
    let endpoint: EndpointID

    init(arguments: ParsedArguments, context: CLIContext, schema: ClusterSchema) throws {
        self.schema = schema
        self.context = try ControllerContext(arguments, command: Self.spec(schema).pathString)
        output = context
        attribute = try ClusterAttributeCommands.attribute(
            arguments.positionals[0], in: schema, command: Self.spec(schema).pathString)
        node = arguments.positionals[1]
        endpoint = try ClusterAttributeCommands.endpoint(
            arguments, index: 2, cluster: schema.id, command: Self.spec(schema).pathString)
    }

    func run() async throws -> ExitCode {
        let stored = try context.node(node, in: try context.openStore())
        let cluster = schema.id
        let attributeID = attribute.id
        let endpoint = endpoint
        let value = try await context.withController(boundedByTimeout: true) { controller in
            await context.applyAddress(to: controller, node: stored.nodeID)
            return try await controller.readAttribute(
                stored.nodeID, endpoint: endpoint, cluster: cluster, attribute: attributeID)
        }
        let name = attribute.schema?.cliName ?? "\(attribute.id)"
        switch value {
        case .unsupported(let status):
            throw ControllerError.status(
                StatusIB(status),
                context:
                    "node \(stored.nodeID.rawValue) endpoint \(endpoint.rawValue) \(schema.cliName) \(name) is not supported"
            )
        case .value(let tlv):
            if output.json {
                output.output.printJSON(
                    .object([
                        ("node", stored.nodeID.json), ("endpoint", .uint(UInt64(endpoint.rawValue))),
                        ("cluster", .string(schema.cliName)), ("attribute", .string(name)),
                        ("value", TLVJSON.json(tlv, as: attribute.schema?.type)),
                    ]))
            } else {
                output.output.print(
                    attribute.schema?.format(tlv) ?? ClusterValueCodec.format(tlv, as: nil))
            }
            return .success
        }
    }
}

/// `matter-emu <cluster> write <attribute> <value> <node> [<endpoint>]`.
struct ClusterWriteCommand: RunnableCommand {
    static func spec(_ schema: ClusterSchema) -> CommandSpec {
        var path: [String] { [schema.cliName, "write"] }
        var summary: String { "write an attribute of the \(schema.name) cluster" }
        var options: [OptionSpec] { ControllerOptions.network }
        var positionals: [PositionalSpec] {
            [
                .required("attribute", "attribute name or ID"),
                .required(
                    "value",
                    "the value: a number (or 0x hex), true/false, text, hex:0011, null, or JSON for lists and structs"),
                .required("node", "node ID or name"),
                .optional(
                    "endpoint", "endpoint (default \(ClusterAttributeCommands.defaultEndpoint(schema.id).rawValue))"),
            ]
        }
        var discussion: String {
            let writable = schema.attributes.filter(\.isWritable).map(\.cliName)
            return "writable attributes: " + (writable.isEmpty ? "(none)" : writable.joined(separator: ", "))
        }
        return CommandSpec(
            path: path, summary: summary, options: options, positionals: positionals,
            discussion: discussion, group: schema.cliName
        ) { try Self(arguments: $0, context: $1, schema: schema) }
    }

    let schema: ClusterSchema
    let context: ControllerContext
    let output: CLIContext
    let attribute: AttributeSchema
    let value: TLVValue
    let node: String
    let endpoint: EndpointID

    init(arguments: ParsedArguments, context: CLIContext, schema: ClusterSchema) throws {
        self.schema = schema
        self.context = try ControllerContext(arguments, command: Self.spec(schema).pathString)
        output = context
        let command = Self.spec(schema).pathString
        let (_, found) = try ClusterAttributeCommands.attribute(
            arguments.positionals[0], in: schema, command: command)
        guard let found else {
            throw UsageError(
                "attribute \(arguments.positionals[0]) has no schema here: its type is unknown, so it cannot be written",
                command: command)
        }
        guard found.isWritable else {
            throw UsageError("\(schema.cliName) \(found.cliName) is read-only", command: command)
        }
        attribute = found
        do { value = try found.encode(cliValue: arguments.positionals[1]) } catch {
            throw UsageError("\(error)", command: command)
        }
        node = arguments.positionals[2]
        endpoint = try ClusterAttributeCommands.endpoint(arguments, index: 3, cluster: schema.id, command: command)
    }

    func run() async throws -> ExitCode {
        let stored = try context.node(node, in: try context.openStore())
        let (cluster, attributeID, value, endpoint) = (schema.id, attribute.id, value, endpoint)
        try await context.withController(boundedByTimeout: true) { controller in
            await context.applyAddress(to: controller, node: stored.nodeID)
            try await controller.writeAttribute(
                stored.nodeID, endpoint: endpoint, cluster: cluster, attribute: attributeID, value: value)
        }
        if output.json {
            output.output.printJSON(
                .object([
                    ("node", stored.nodeID.json), ("endpoint", .uint(UInt64(endpoint.rawValue))),
                    ("cluster", .string(schema.cliName)), ("attribute", .string(attribute.cliName)),
                    ("value", TLVJSON.json(value, as: attribute.type)), ("status", .string("success")),
                ]))
        } else {
            output.output.print(
                "node \(nodeLabel(stored)) endpoint \(endpoint.rawValue): \(schema.cliName) \(attribute.cliName) = \(attribute.format(value))"
            )
        }
        return .success
    }
}

/// `matter-emu <cluster> subscribe <attribute> <min-interval> <max-interval> <node> [<endpoint>]`.
struct ClusterSubscribeCommand: RunnableCommand {
    static func spec(_ schema: ClusterSchema) -> CommandSpec {
        var path: [String] { [schema.cliName, "subscribe"] }
        var summary: String { "subscribe to an attribute of the \(schema.name) cluster" }
        var options: [OptionSpec] {
            ControllerOptions.network + [
                .value("count", "N", "stop after N reports (after the priming one)"),
                .value("duration", "SECONDS", "stop after this long"),
            ]
        }
        var positionals: [PositionalSpec] {
            [
                .required("attribute", "attribute name or ID"),
                .required("min-interval", "minimum seconds between reports"),
                .required("max-interval", "maximum seconds between reports (keep-alive)"),
                .required("node", "node ID or name"),
                .optional(
                    "endpoint", "endpoint (default \(ClusterAttributeCommands.defaultEndpoint(schema.id).rawValue))"),
            ]
        }
        var discussion: String {
            "Prints the current value, then one line per change (JSON lines with --json), until --count or\n"
                + "--duration is reached, the subscription is lost (exit 7), or the process is interrupted."
        }
        return CommandSpec(
            path: path, summary: summary, options: options, positionals: positionals,
            discussion: discussion, group: schema.cliName
        ) { try Self(arguments: $0, context: $1, schema: schema) }
    }

    let schema: ClusterSchema
    let context: ControllerContext
    let output: CLIContext
    let attribute: (id: AttributeID, schema: AttributeSchema?)
    let minInterval: UInt16
    let maxInterval: UInt16
    let node: String
    let endpoint: EndpointID
    let count: Int?
    let duration: Duration?

    init(arguments: ParsedArguments, context: CLIContext, schema: ClusterSchema) throws {
        self.schema = schema
        let command = Self.spec(schema).pathString
        self.context = try ControllerContext(arguments, command: command)
        output = context
        attribute = try ClusterAttributeCommands.attribute(
            arguments.positionals[0], in: schema, command: command)
        minInterval = try ParsedArguments.parseUnsigned(
            arguments.positionals[1], what: "<min-interval>", command: command)
        maxInterval = try ParsedArguments.parseUnsigned(
            arguments.positionals[2], what: "<max-interval>", command: command)
        guard maxInterval >= minInterval, maxInterval > 0 else {
            throw UsageError("<max-interval> must be at least 1 and at least <min-interval>", command: command)
        }
        node = arguments.positionals[3]
        endpoint = try ClusterAttributeCommands.endpoint(
            arguments, index: 4, cluster: schema.id, command: command)
        count = try arguments.unsigned("count", as: UInt32.self).map(Int.init)
        duration = try arguments.unsigned("duration", as: UInt32.self).map { .seconds(Int($0)) }
    }

    func run() async throws -> ExitCode {
        let stored = try context.node(node, in: try context.openStore())
        let path = ConcreteAttributePath(endpoint: endpoint, cluster: schema.id, attribute: attribute.id)
        let (stream, continuation) = AsyncStream.makeStream(of: SubscriptionEvent.self)
        try await context.withController { controller in
            await context.applyAddress(to: controller, node: stored.nodeID)
            let subscription = try await controller.subscribe(
                stored.nodeID, paths: [AttributePathIB(path)], minInterval: minInterval, maxInterval: maxInterval,
                onReport: { continuation.yield(.report($0)) },
                onEnded: { error in
                    continuation.yield(.ended(error))
                    continuation.finish()
                })
            try emit(subscription.priming, path: path, node: stored)
            var timer: Task<Void, Never>?
            if let duration {
                timer = Task {
                    try? await Task.sleep(for: duration)
                    continuation.yield(.timeUp)
                }
            }
            defer { timer?.cancel() }
            var received = 0
            if count == 0 { return }
            loop: for await event in stream {
                switch event {
                case .report(let report):
                    guard report.result.report(for: path) != nil else { continue }
                    try emit(report.result, path: path, node: stored)
                    received += 1
                    if let count, received >= count { break loop }
                case .ended(let error):
                    throw error
                case .timeUp:
                    break loop
                }
            }
            await controller.cancel(subscription)
        }
        return .success
    }

    private func emit(_ result: ReadResult, path: ConcreteAttributePath, node: ControllerNode) throws {
        guard let report = result.report(for: path) else { return }
        let name = attribute.schema?.cliName ?? "\(attribute.id)"
        switch report.result {
        case .failure(let status):
            throw ControllerError.status(
                status,
                context: "node \(node.nodeID.rawValue) endpoint \(endpoint.rawValue) \(schema.cliName) \(name)")
        case .success(let value):
            if output.json {
                let line: JSONValue = .object([
                    ("node", node.nodeID.json), ("endpoint", .uint(UInt64(endpoint.rawValue))),
                    ("cluster", .string(schema.cliName)), ("attribute", .string(name)),
                    ("value", TLVJSON.json(value, as: attribute.schema?.type)),
                ])
                output.output.print(line.serialized(pretty: false))
            } else {
                output.output.print(
                    "\(name) = " + (attribute.schema?.format(value) ?? ClusterValueCodec.format(value, as: nil)))
            }
        }
    }
}

/// What a running `subscribe` command waits for.
enum SubscriptionEvent: Sendable {
    case report(SubscriptionReport)
    case ended(ControllerError)
    case timeUp
}
