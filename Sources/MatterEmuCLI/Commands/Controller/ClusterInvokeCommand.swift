import MatterClusters
import MatterController
import MatterCore
import MatterInteraction
import MatterStorage
import MatterTLV

/// `matter-emu <cluster> <command> [<field> ...] [--<optional-field> VALUE] <node|group> [<endpoint>]`: any
/// request of any cluster of the model, as chip-tool writes it. Mandatory fields are positional in tag order,
/// optional ones are options named in camelCase (`--transitionTime 10`); values as `<cluster> write` takes
/// them (numbers, true/false, text, hex:…, null, JSON for lists and structs). Timed commands are sent in a
/// timed interaction. A response command is printed with its fields named.
struct ClusterInvokeCommand: RunnableCommand {
    let schema: ClusterSchema
    let command: CommandSchema
    let fields: [TLVElement]
    let target: TargetArguments

    /// One spec per request of the cluster that the specification allows (conformance other than `X`).
    static func specs(_ schema: ClusterSchema) -> [CommandSpec] {
        schema.commands.filter { $0.conformance != .disallowed }.map { spec(schema, $0) }
    }

    static func spec(_ schema: ClusterSchema, _ command: CommandSchema) -> CommandSpec {
        let mandatory = command.fields.filter { !$0.isOptional }
        let optional = command.fields.filter { $0.isOptional && $0.tag != 0xFE }
        let defaultEndpoint = ClusterAttributeCommands.defaultEndpoint(schema.id).rawValue
        var summary = "invoke \(schema.name).\(command.name)"
        if command.requiresTimedInvoke { summary += " (timed)" }
        var discussion = "fields: "
        discussion +=
            command.fields.isEmpty
            ? "(none)"
            : command.fields.map { "\($0.jsonName) \($0.type)\($0.isNullable ? " or null" : "")" }
                .joined(separator: ", ")
        if case .command(let id) = command.response, let response = schema.response(id) {
            discussion += "\nanswers with \(response.name): its fields are printed (JSON with --json)"
        }
        return CommandSpec(
            path: [schema.cliName, command.cliName], summary: summary,
            options: ControllerOptions.network
                + optional.map { .value($0.jsonName, "VALUE", "optional field \($0.name) (\($0.type))") },
            positionals: mandatory.map { .required($0.jsonName, "\($0.name) (\($0.type))") } + [
                .required("node|group", "node ID or name, or a group name"),
                .optional("endpoint", "endpoint (default \(defaultEndpoint); not with a group)"),
            ],
            discussion: discussion, group: schema.cliName
        ) { arguments, context in
            try ClusterInvokeCommand(arguments: arguments, context: context, schema: schema, command: command)
        }
    }

    init(arguments: ParsedArguments, context: CLIContext, schema: ClusterSchema, command: CommandSchema) throws {
        self.schema = schema
        self.command = command
        let path = "\(schema.cliName) \(command.cliName)"
        let mandatory = command.fields.filter { !$0.isOptional }.count
        var named: [String: String] = [:]
        for field in command.fields where field.isOptional {
            if let value = arguments.value(field.jsonName) { named[field.jsonName] = value }
        }
        do {
            let encoded = try command.encodeFields(
                positional: Array(arguments.positionals.prefix(mandatory)), named: named)
            guard case .structure(let members) = encoded else { throw UsageError("no fields", command: path) }
            fields = members
        } catch let error as ClusterSchemaError {
            throw UsageError("\(error)", command: path)
        }
        var positionals = arguments.positionals
        // With no endpoint given, the clusters of the node go to endpoint 0.
        if positionals.count == mandatory + 1, ClusterAttributeCommands.defaultEndpoint(schema.id) == .root {
            positionals.append("0")
        }
        target = try TargetArguments(
            arguments.replacingPositionals(positionals), context, command: path,
            label: "\(schema.name).\(command.name)", leading: mandatory)
    }

    func run() async throws -> ExitCode {
        let (cluster, commandID, fields) = (schema.id, command.id, fields)
        guard case .command(let responseID) = command.response, let response = schema.response(responseID) else {
            return try await target.runner.run(target.target, endpoint: target.endpoint) {
                controller, node, endpoint throws(ControllerError) in
                try await controller.invoke(
                    node, endpoint: endpoint, cluster: cluster, command: commandID, fields: fields)
            }
        }
        // A command answered with a response command: one node, and its fields are the output.
        let context = target.runner.context
        let output = target.runner.output
        let stored = try context.node(target.target, in: try context.openStore())
        let endpoint =
            try target.endpoint.map { try ControllerContext.endpoint($0, command: context.command) } ?? EndpointID(1)
        let result = try await context.withController(boundedByTimeout: true) { controller in
            await context.applyAddress(to: controller, node: stored.nodeID)
            return try await controller.invoke(
                stored.nodeID, endpoint: endpoint, cluster: cluster, command: commandID, fields: fields)
        }
        guard case .response(_, let values) = result else {
            output.output.print("node \(nodeLabel(stored)) endpoint \(endpoint.rawValue): \(command.name) succeeded")
            return .success
        }
        if output.json {
            output.output.printJSON(
                .object([
                    ("node", stored.nodeID.json), ("endpoint", .uint(UInt64(endpoint.rawValue))),
                    ("command", .string("\(schema.name).\(command.name)")), ("response", .string(response.name)),
                    ("fields", TLVJSON.json(values, as: .structure(StructSchema(response.name, response.fields)))),
                ]))
        } else {
            output.output.print("\(response.name): \(response.format(values))")
        }
        return .success
    }
}
