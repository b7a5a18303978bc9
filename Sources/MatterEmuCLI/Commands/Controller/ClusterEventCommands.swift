import MatterClusters
import MatterController
import MatterCore
import MatterInteraction
import MatterStorage
import MatterTLV

/// Shared parts of `<cluster> read-event` and `<cluster> subscribe-event`.
enum ClusterEventCommands {
    /// The event named `text` (chip-tool name or number).
    static func event(_ text: String, in schema: ClusterSchema, command: String) throws -> EventID {
        if let event = schema.events.first(where: { $0.cliName == text || $0.name == text }) { return event.id }
        if let number = ControllerContext.number(text), let id = UInt32(exactly: number) { return EventID(id) }
        let names = schema.events.map(\.cliName).joined(separator: ", ")
        throw UsageError(
            "unknown event '\(text)' of \(schema.cliName) (events: \(names.isEmpty ? "none" : names))",
            command: command)
    }

    static func eventList(_ schema: ClusterSchema) -> String {
        let names = schema.events.map(\.cliName)
        return names.isEmpty ? "(none)" : names.joined(separator: ", ")
    }

    static let eventMinOption = OptionSpec.value("event-min", "N", "only events numbered N or later")

    /// Prints events: one human line each, or one JSON line each with `--json`.
    static func print(_ result: EventReadResult, node: ControllerNode, output: CLIContext) throws {
        for status in result.statuses {
            throw ControllerError.status(status.status, context: "node \(node.nodeID.rawValue) event \(status.path)")
        }
        for event in result.events {
            let cluster = ClusterRegistry.standard.cluster(event.path.cluster)
            let schema = cluster?.event(event.path.event)
            let clusterName = cluster?.cliName ?? "\(event.path.cluster)"
            let eventName = schema?.cliName ?? "\(event.path.event)"
            let priority = ["debug", "info", "critical"][safe: Int(event.priority)] ?? "\(event.priority)"
            let (clock, ms) =
                switch event.timestamp {
                case .epoch(let ms): ("epoch", ms)
                case .system(let ms): ("system", ms)
                }
            if output.json {
                let fields: [(String, JSONValue)] = event.fields.map { field in
                    let fieldSchema = schema?.fields.first { $0.tag == field.tag }
                    return (
                        fieldSchema?.jsonName ?? String(field.tag), TLVJSON.json(field.value, as: fieldSchema?.type)
                    )
                }
                let line: JSONValue = .object([
                    ("node", node.nodeID.json), ("endpoint", .uint(UInt64(event.path.endpoint.rawValue))),
                    ("cluster", .string(clusterName)), ("event", .string(eventName)),
                    ("eventNumber", .uint(event.eventNumber)), ("priority", .string(priority)),
                    ("timestamp", .object([("type", .string(clock)), ("milliseconds", .uint(ms))])),
                    ("fields", .object(fields)),
                ])
                output.output.print(line.serialized(pretty: false))
            } else {
                let fields = event.fields.map { field in
                    let fieldSchema = schema?.fields.first { $0.tag == field.tag }
                    return
                        "\(fieldSchema?.name ?? String(field.tag))=\(ClusterValueCodec.format(field.value, as: fieldSchema?.type))"
                }
                output.output.print(
                    "#\(event.eventNumber) \(clusterName) \(eventName) endpoint \(event.path.endpoint.rawValue) "
                        + "\(priority) \(clock) \(ms) ms" + (fields.isEmpty ? "" : ": " + fields.joined(separator: " "))
                )
            }
        }
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

/// `matter-emu <cluster> read-event <event> <node> [<endpoint>]`.
struct ClusterReadEventCommand: RunnableCommand {
    static func spec(_ schema: ClusterSchema) -> CommandSpec {
        var path: [String] { [schema.cliName, "read-event"] }
        var summary: String { "read events of the \(schema.name) cluster" }
        var options: [OptionSpec] { ControllerOptions.network + [ClusterEventCommands.eventMinOption] }
        var positionals: [PositionalSpec] {
            [
                .required("event", "event name or ID"),
                .required("node", "node ID or name"),
                .optional(
                    "endpoint", "endpoint (default \(ClusterAttributeCommands.defaultEndpoint(schema.id).rawValue))"),
            ]
        }
        var discussion: String {
            "events: \(ClusterEventCommands.eventList(schema))\n\n"
                + "Prints one line per event the node still holds (JSON lines with --json): event number, priority,\n"
                + "timestamp and fields. An event the node does not have ends with exit code 8."
        }
        return CommandSpec(
            path: path, summary: summary, options: options, positionals: positionals,
            discussion: discussion, group: schema.cliName
        ) { try Self(arguments: $0, context: $1, schema: schema) }
    }

    let schema: ClusterSchema
    let context: ControllerContext
    let output: CLIContext
    let event: EventID
    let node: String
    let endpoint: EndpointID
    let eventMin: UInt64?

    init(arguments: ParsedArguments, context: CLIContext, schema: ClusterSchema) throws {
        self.schema = schema
        self.context = try ControllerContext(arguments, command: Self.spec(schema).pathString)
        output = context
        event = try ClusterEventCommands.event(
            arguments.positionals[0], in: schema, command: Self.spec(schema).pathString)
        node = arguments.positionals[1]
        endpoint = try ClusterAttributeCommands.endpoint(
            arguments, index: 2, cluster: schema.id, command: Self.spec(schema).pathString)
        eventMin = try arguments.unsigned("event-min", as: UInt64.self)
    }

    func run() async throws -> ExitCode {
        let stored = try context.node(node, in: try context.openStore())
        let path = EventPathIB(endpoint: endpoint, cluster: schema.id, event: event)
        let eventMin = eventMin
        let result = try await context.withController(boundedByTimeout: true) { controller in
            await context.applyAddress(to: controller, node: stored.nodeID)
            return try await controller.readEvents(stored.nodeID, paths: [path], eventMin: eventMin)
        }
        try ClusterEventCommands.print(result, node: stored, output: output)
        return .success
    }
}

/// `matter-emu <cluster> subscribe-event <event> <min-interval> <max-interval> <node> [<endpoint>]`.
struct ClusterSubscribeEventCommand: RunnableCommand {
    static func spec(_ schema: ClusterSchema) -> CommandSpec {
        var path: [String] { [schema.cliName, "subscribe-event"] }
        var summary: String { "subscribe to events of the \(schema.name) cluster" }
        var options: [OptionSpec] {
            ControllerOptions.network + [
                ClusterEventCommands.eventMinOption,
                .value("count", "N", "stop after N events (after those of the priming report)"),
                .value("duration", "SECONDS", "stop after this long"),
            ]
        }
        var positionals: [PositionalSpec] {
            [
                .required("event", "event name or ID"),
                .required("min-interval", "minimum seconds between reports"),
                .required("max-interval", "maximum seconds between reports (keep-alive)"),
                .required("node", "node ID or name"),
                .optional(
                    "endpoint", "endpoint (default \(ClusterAttributeCommands.defaultEndpoint(schema.id).rawValue))"),
            ]
        }
        var discussion: String {
            "events: \(ClusterEventCommands.eventList(schema))\n\n"
                + "Prints the events the node holds, then one line per new event (JSON lines with --json), until\n"
                + "--count or --duration is reached, the subscription is lost (exit 7), or the process is interrupted."
        }
        return CommandSpec(
            path: path, summary: summary, options: options, positionals: positionals,
            discussion: discussion, group: schema.cliName
        ) { try Self(arguments: $0, context: $1, schema: schema) }
    }

    let schema: ClusterSchema
    let context: ControllerContext
    let output: CLIContext
    let event: EventID
    let minInterval: UInt16
    let maxInterval: UInt16
    let node: String
    let endpoint: EndpointID
    let eventMin: UInt64?
    let count: Int?
    let duration: Duration?

    init(arguments: ParsedArguments, context: CLIContext, schema: ClusterSchema) throws {
        self.schema = schema
        let command = Self.spec(schema).pathString
        self.context = try ControllerContext(arguments, command: command)
        output = context
        event = try ClusterEventCommands.event(arguments.positionals[0], in: schema, command: command)
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
        eventMin = try arguments.unsigned("event-min", as: UInt64.self)
        count = try arguments.unsigned("count", as: UInt32.self).map(Int.init)
        duration = try arguments.unsigned("duration", as: UInt32.self).map { .seconds(Int($0)) }
    }

    func run() async throws -> ExitCode {
        let stored = try context.node(node, in: try context.openStore())
        let path = EventPathIB(endpoint: endpoint, cluster: schema.id, event: event)
        let (stream, continuation) = AsyncStream.makeStream(of: EventStreamItem.self)
        try await context.withController { controller in
            await context.applyAddress(to: controller, node: stored.nodeID)
            let (subscription, priming) = try await controller.subscribe(
                stored.nodeID, attributes: [], events: [path], eventMin: eventMin, minInterval: minInterval,
                maxInterval: maxInterval, onEvents: { continuation.yield(.events($0)) },
                onEnded: { error in
                    continuation.yield(.ended(error))
                    continuation.finish()
                })
            try ClusterEventCommands.print(priming, node: stored, output: output)
            var timer: Task<Void, Never>?
            if let duration {
                timer = Task {
                    try? await Task.sleep(for: duration)
                    continuation.yield(.timeUp)
                }
            }
            defer { timer?.cancel() }
            var received = 0
            if count != 0 {
                loop: for await item in stream {
                    switch item {
                    case .events(let result):
                        try ClusterEventCommands.print(result, node: stored, output: output)
                        received += result.events.count
                        if let count, received >= count { break loop }
                    case .ended(let error):
                        throw error
                    case .timeUp:
                        break loop
                    }
                }
            }
            await controller.cancel(subscription)
        }
        return .success
    }
}

/// What a running `subscribe-event` command waits for.
enum EventStreamItem: Sendable {
    case events(EventReadResult)
    case ended(ControllerError)
    case timeUp
}
