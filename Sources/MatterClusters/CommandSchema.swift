public import MatterCore
public import MatterTLV

/// One command of a cluster: a request the server accepts, or a response it generates.
public struct CommandSchema: Hashable, Sendable {
    /// What the server answers a request with.
    public enum Response: Hashable, Sendable {
        /// A CommandStatusIB.
        case status
        /// The response command with this ID.
        case command(CommandID)
    }

    public let id: CommandID
    /// The spec's PascalCase name, e.g. `MoveToLevel`.
    public let name: String
    /// Fields of the command's CommandFields structure, in tag order.
    public let fields: [FieldSchema]
    /// For requests: the answer. For responses: `.status` (unused).
    public let response: Response
    /// Privilege needed to invoke.
    public let privilege: Privilege
    /// Must be invoked in a timed interaction (access `T`).
    public let requiresTimedInvoke: Bool
    /// Needs an accessing fabric (access `F`).
    public let isFabricScoped: Bool
    /// When the command is part of the cluster.
    public let conformance: Conformance

    public init(
        _ id: CommandID, _ name: String, _ fields: [FieldSchema] = [], response: Response = .status,
        privilege: Privilege = .operate, timed: Bool = false, fabricScoped: Bool = false,
        conformance: Conformance = .mandatory
    ) {
        self.conformance = conformance
        self.id = id
        self.name = name
        self.fields = fields
        self.response = response
        self.privilege = privilege
        self.requiresTimedInvoke = timed
        self.isFabricScoped = fabricScoped
    }

    /// chip-tool's name: `move-to-level`.
    public var cliName: String { SchemaNames.kebabCase(name) }

    /// The field whose name matches `name` (any of PascalCase, camelCase, kebab-case).
    public func field(named name: String) -> FieldSchema? {
        let key = SchemaNames.normalized(name)
        return fields.first { SchemaNames.normalized($0.name) == key }
    }

    /// Builds the CommandFields structure from command-line arguments: `positional` values fill the
    /// mandatory fields in tag order, then the optional ones; `named` values (keyed by field name in
    /// any case style) set fields directly. Missing mandatory fields and unknown names throw.
    public func encodeFields(positional: [String], named: [String: String] = [:])
        throws(ClusterSchemaError) -> TLVValue
    {
        var values: [UInt8: TLVValue] = [:]
        for (key, text) in named {
            guard let field = field(named: key) else {
                throw .unknownField(name: key, in: cliName)
            }
            values[field.tag] = try ClusterValueCodec.encode(
                text: text, as: field.type, nullable: field.isNullable,
                context: "\(cliName) \(field.jsonName)")
        }
        let order = fields.filter { !$0.isOptional } + fields.filter(\.isOptional)
        var remaining = positional[...]
        for field in order where values[field.tag] == nil {
            guard let text = remaining.popFirst() else {
                if field.isOptional { continue }
                throw .missingField(name: field.jsonName, in: cliName)
            }
            values[field.tag] = try ClusterValueCodec.encode(
                text: text, as: field.type, nullable: field.isNullable,
                context: "\(cliName) \(field.jsonName)")
        }
        guard remaining.isEmpty else {
            throw .tooManyArguments(expected: fields.count, got: positional.count, in: cliName)
        }
        let members = values.keys.sorted().compactMap { tag in values[tag].map { TLVElement(tag: .context(tag), $0) } }
        return .structure(members)
    }

    /// The CommandFields structure as JSON text with named fields.
    public func format(_ fields: TLVValue) -> String {
        ClusterValueCodec.format(fields, as: .structure(StructSchema(name, self.fields)))
    }
}

/// One event of a cluster.
public struct EventSchema: Hashable, Sendable {
    /// Event priority (0 debug, 1 info, 2 critical).
    public enum Priority: UInt8, Hashable, Sendable {
        case debug = 0
        case info = 1
        case critical = 2

        /// `debug`, `info` or `critical`.
        public var name: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .critical: "critical"
            }
        }
    }

    public let id: EventID
    public let name: String
    public let priority: Priority
    public let fields: [FieldSchema]
    /// Privilege needed to read.
    public let readPrivilege: Privilege
    /// Carries a FabricIndex (tag 0xFE) and is visible only to that fabric.
    public let isFabricSensitive: Bool
    /// When the event is part of the cluster.
    public let conformance: Conformance

    public init(
        _ id: EventID, _ name: String, _ priority: Priority, _ fields: [FieldSchema] = [],
        read: Privilege = .view, fabricSensitive: Bool = false, conformance: Conformance = .mandatory
    ) {
        self.conformance = conformance
        self.id = id
        self.name = name
        self.priority = priority
        self.fields = fields
        self.readPrivilege = read
        self.isFabricSensitive = fabricSensitive
    }

    /// chip-tool's name: `start-up`.
    public var cliName: String { SchemaNames.kebabCase(name) }
}
