import MatterClusters
import MatterCore

/// `matter-emu model clusters | cluster NAME|ID | device-types | device-type NAME|ID`: the data model itself
/// (Matter 1.5, generated from the specification; docs/MODEL.md).
enum ModelCommands {
    static var all: [CommandSpec] {
        [
            CommandSpec(ModelClustersCommand.self), CommandSpec(ModelClusterCommand.self),
            CommandSpec(ModelDeviceTypesCommand.self), CommandSpec(ModelDeviceTypeCommand.self),
        ]
    }

    /// The known names closest to `text` (edit distance), for "did you mean" in usage errors.
    static func nearest(_ text: String, among names: [String], count: Int = 3) -> [String] {
        let key = text.lowercased()
        let scored = names.map { ($0, distance(key, $0.lowercased())) }
        let best = scored.sorted { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }
        let limit = max(2, key.count / 2)
        return best.prefix(count).filter { $0.1 <= limit || $0.0.hasPrefix(key) || key.hasPrefix($0.0) }.map(\.0)
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    static func hex(_ value: UInt32, digits: Int = 4) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    static func cluster(_ text: String, command: String) throws -> ClusterSchema {
        if let schema = ClusterRegistry.standard.cluster(named: text) { return schema }
        let near = nearest(text, among: ClusterRegistry.standard.clusters.map(\.cliName))
        throw UsageError(
            "unknown cluster '\(text)'" + (near.isEmpty ? "" : " (nearest: \(near.joined(separator: ", ")))"),
            command: command)
    }

    static func deviceType(_ text: String, command: String) throws -> DeviceTypeSchema {
        if let deviceType = DeviceTypeSchema.named(text) { return deviceType }
        let near = nearest(text, among: DeviceTypeSchema.all.map(\.cliName))
        throw UsageError(
            "unknown device type '\(text)'" + (near.isEmpty ? "" : " (nearest: \(near.joined(separator: ", ")))"),
            command: command)
    }

    static func json(_ conformance: Conformance) -> JSONValue { .string(conformance.description) }

    static func json(_ field: FieldSchema) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("tag", .uint(UInt64(field.tag))), ("name", .string(field.name)), ("type", .string("\(field.type)")),
        ]
        if let name = field.typeName { members.append(("typeName", .string(name))) }
        members += [
            ("nullable", .bool(field.isNullable)), ("optional", .bool(field.isOptional)),
            ("conformance", json(field.conformance)),
        ]
        return .object(members)
    }

    static func json(_ schema: ClusterSchema) -> JSONValue {
        .object([
            ("id", .uint(UInt64(schema.id.rawValue))), ("name", .string(schema.name)),
            ("cliName", .string(schema.cliName)), ("revision", .uint(UInt64(schema.revision))),
            ("classification", .string(schema.classification.rawValue)),
            ("base", schema.base.map { .string($0) } ?? .null),
            (
                "features",
                .array(
                    schema.features.map {
                        .object([
                            ("bit", .uint(UInt64($0.bit))), ("code", .string($0.code)), ("name", .string($0.name)),
                            ("conformance", json($0.conformance)),
                        ])
                    })
            ),
            (
                "attributes",
                .array(
                    schema.attributes.map { attribute in
                        var members: [(String, JSONValue)] = [
                            ("id", .uint(UInt64(attribute.id.rawValue))), ("name", .string(attribute.name)),
                            ("cliName", .string(attribute.cliName)), ("type", .string("\(attribute.type)")),
                        ]
                        if let name = attribute.typeName { members.append(("typeName", .string(name))) }
                        members += [
                            ("nullable", .bool(attribute.isNullable)),
                            ("read", .string(attribute.readPrivilege.description)),
                            ("write", attribute.writePrivilege.map { .string($0.description) } ?? .null),
                            ("fabricScoped", .bool(attribute.isFabricScoped)),
                            ("timed", .bool(attribute.requiresTimedWrite)),
                            ("conformance", json(attribute.conformance)),
                        ]
                        if let constraint = attribute.constraint {
                            members.append(
                                (
                                    "constraint",
                                    .object([
                                        ("min", constraint.min.map { .int($0) } ?? .null),
                                        ("max", constraint.max.map { .int($0) } ?? .null),
                                    ])
                                ))
                        }
                        return .object(members)
                    })
            ),
            ("commands", .array(schema.commands.map { command(schema, $0) })),
            ("responses", .array(schema.responses.map { command(schema, $0) })),
            (
                "events",
                .array(
                    schema.events.map {
                        .object([
                            ("id", .uint(UInt64($0.id.rawValue))), ("name", .string($0.name)),
                            ("cliName", .string($0.cliName)), ("priority", .string("\($0.priority)")),
                            ("read", .string($0.readPrivilege.description)),
                            ("conformance", json($0.conformance)), ("fields", .array($0.fields.map(json))),
                        ])
                    })
            ),
            (
                "enums",
                .array(
                    schema.enums.map { item in
                        .object([
                            ("name", .string(item.name)),
                            (
                                "values",
                                .array(
                                    item.values.map {
                                        .object([("value", .uint($0.value)), ("name", .string($0.name))])
                                    })
                            ),
                        ])
                    })
            ),
            (
                "bitmaps",
                .array(
                    schema.bitmaps.map { item in
                        .object([
                            ("name", .string(item.name)),
                            (
                                "fields",
                                .array(
                                    item.fields.map { .object([("name", .string($0.name)), ("mask", .uint($0.mask))]) })
                            ),
                        ])
                    })
            ),
            (
                "structs",
                .array(
                    schema.structs.map {
                        .object([("name", .string($0.name)), ("fields", .array($0.fields.map(json)))])
                    })
            ),
        ])
    }

    static func command(_ schema: ClusterSchema, _ command: CommandSchema) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .uint(UInt64(command.id.rawValue))), ("name", .string(command.name)),
            ("cliName", .string(command.cliName)), ("privilege", .string(command.privilege.description)),
            ("timed", .bool(command.requiresTimedInvoke)), ("fabricScoped", .bool(command.isFabricScoped)),
            ("conformance", json(command.conformance)), ("fields", .array(command.fields.map(json))),
        ]
        if case .command(let id) = command.response {
            members.append(("response", .string(schema.response(id)?.name ?? "\(id)")))
        }
        return .object(members)
    }

    static func json(_ deviceType: DeviceTypeSchema) -> JSONValue {
        .object([
            ("id", .uint(UInt64(deviceType.id))), ("name", .string(deviceType.name)),
            ("cliName", .string(deviceType.cliName)), ("revision", .uint(UInt64(deviceType.revision))),
            ("classification", .string(deviceType.classification)),
            (
                "clusters",
                .array(
                    deviceType.clusters.map {
                        .object([
                            ("id", .uint(UInt64($0.cluster.rawValue))), ("name", .string($0.name)),
                            ("side", .string($0.side.rawValue)), ("conformance", json($0.conformance)),
                            ("features", .array($0.features.map { .string($0) })),
                        ])
                    })
            ),
        ])
    }
}

/// `matter-emu model clusters`.
struct ModelClustersCommand: CLICommand {
    static let path = ["model", "clusters"]
    static let summary = "list every cluster of the data model (Matter 1.5)"
    static let options: [OptionSpec] = []
    static let positionals: [PositionalSpec] = []
    let context: CLIContext

    init(arguments: ParsedArguments, context: CLIContext) throws { self.context = context }

    func run() async throws -> ExitCode {
        let clusters = ClusterRegistry.standard.clusters
        if context.json {
            context.output.printJSON(
                .array(
                    clusters.map {
                        .object([
                            ("id", .uint(UInt64($0.id.rawValue))), ("name", .string($0.name)),
                            ("cliName", .string($0.cliName)), ("revision", .uint(UInt64($0.revision))),
                        ])
                    }))
        } else {
            for cluster in clusters {
                context.output.print(
                    "\(ModelCommands.hex(cluster.id.rawValue))  \(cluster.cliName)  rev \(cluster.revision)")
            }
        }
        return .success
    }
}

/// `matter-emu model cluster NAME|ID`.
struct ModelClusterCommand: CLICommand {
    static let path = ["model", "cluster"]
    static let summary = "show a cluster of the data model: features, attributes, commands, events, types"
    static let options: [OptionSpec] = []
    static let positionals: [PositionalSpec] = [.required("cluster", "chip-tool name (onoff), spec name or ID")]
    let context: CLIContext
    let schema: ClusterSchema

    init(arguments: ParsedArguments, context: CLIContext) throws {
        self.context = context
        schema = try ModelCommands.cluster(arguments.positionals[0], command: Self.pathString)
    }

    func run() async throws -> ExitCode {
        if context.json {
            context.output.printJSON(ModelCommands.json(schema))
            return .success
        }
        var lines = [
            "\(schema.name) (\(ModelCommands.hex(schema.id.rawValue))), revision \(schema.revision), "
                + "\(schema.classification.rawValue) cluster" + (schema.base.map { ", derived from \($0)" } ?? "")
        ]
        lines.append("features:")
        for feature in schema.features {
            lines.append("  bit \(feature.bit) \(feature.code) \(feature.name)  [\(feature.conformance)]")
        }
        lines.append("attributes:")
        for attribute in schema.attributes {
            var access = "R \(attribute.readPrivilege)"
            if let write = attribute.writePrivilege { access += ", W \(write)" }
            let type = attribute.typeName.map { "\(attribute.type) \($0)" } ?? "\(attribute.type)"
            lines.append(
                "  \(ModelCommands.hex(attribute.id.rawValue)) \(attribute.cliName): \(type)"
                    + "\(attribute.isNullable ? " nullable" : "") (\(access))  [\(attribute.conformance)]")
        }
        lines.append("commands:")
        for command in schema.commands {
            let fields = command.fields.map { "\($0.jsonName)\($0.isOptional ? "?" : "")" }.joined(separator: " ")
            lines.append(
                "  \(ModelCommands.hex(command.id.rawValue, digits: 2)) \(command.cliName) \(fields)"
                    + "\(command.requiresTimedInvoke ? " (timed)" : "")  [\(command.conformance)]")
        }
        lines.append("events:")
        for event in schema.events {
            lines.append(
                "  \(ModelCommands.hex(event.id.rawValue, digits: 2)) \(event.cliName) (\(event.priority))  [\(event.conformance)]"
            )
        }
        context.output.print(lines.joined(separator: "\n"))
        return .success
    }
}

/// `matter-emu model device-types`.
struct ModelDeviceTypesCommand: CLICommand {
    static let path = ["model", "device-types"]
    static let summary = "list every device type of the Matter 1.5 device library"
    static let options: [OptionSpec] = []
    static let positionals: [PositionalSpec] = []
    let context: CLIContext

    init(arguments: ParsedArguments, context: CLIContext) throws { self.context = context }

    func run() async throws -> ExitCode {
        if context.json {
            context.output.printJSON(
                .array(
                    DeviceTypeSchema.all.map {
                        .object([
                            ("id", .uint(UInt64($0.id))), ("name", .string($0.name)), ("cliName", .string($0.cliName)),
                            ("revision", .uint(UInt64($0.revision))), ("classification", .string($0.classification)),
                        ])
                    }))
        } else {
            for type in DeviceTypeSchema.all {
                context.output.print(
                    "\(ModelCommands.hex(type.id))  \(type.cliName)  rev \(type.revision)  \(type.classification)")
            }
        }
        return .success
    }
}

/// `matter-emu model device-type NAME|ID`.
struct ModelDeviceTypeCommand: CLICommand {
    static let path = ["model", "device-type"]
    static let summary = "show a device type: its clusters, their sides, conformance and required features"
    static let options: [OptionSpec] = []
    static let positionals: [PositionalSpec] = [.required("device-type", "name (dimmable-light) or ID")]
    let context: CLIContext
    let deviceType: DeviceTypeSchema

    init(arguments: ParsedArguments, context: CLIContext) throws {
        self.context = context
        deviceType = try ModelCommands.deviceType(arguments.positionals[0], command: Self.pathString)
    }

    func run() async throws -> ExitCode {
        if context.json {
            context.output.printJSON(ModelCommands.json(deviceType))
            return .success
        }
        var lines = [
            "\(deviceType.name) (\(ModelCommands.hex(deviceType.id))), revision \(deviceType.revision), "
                + deviceType.classification
        ]
        for cluster in deviceType.clusters {
            let features = cluster.features.isEmpty ? "" : " features \(cluster.features.joined(separator: ","))"
            lines.append(
                "  \(cluster.side.rawValue) \(ModelCommands.hex(cluster.cluster.rawValue)) \(cluster.name)  "
                    + "[\(cluster.conformance)]\(features)")
        }
        context.output.print(lines.joined(separator: "\n"))
        return .success
    }
}
