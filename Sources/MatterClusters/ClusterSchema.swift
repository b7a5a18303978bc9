public import MatterCore

/// A cluster's schema: its attributes, commands, events and features, as data.
public struct ClusterSchema: Hashable, Sendable {
    /// A feature bit of the FeatureMap.
    public struct Feature: Hashable, Sendable {
        public let bit: Int
        /// The spec's short code, e.g. `LT`.
        public let code: String
        public let name: String
        /// When the feature may or must be enabled.
        public let conformance: Conformance

        public init(_ bit: Int, _ code: String, _ name: String, conformance: Conformance = .optional) {
            self.bit = bit
            self.code = code
            self.name = name
            self.conformance = conformance
        }

        /// The feature's bit in the FeatureMap.
        public var mask: UInt32 { bit >= 0 && bit < 32 ? UInt32(1) << UInt32(bit) : 0 }
    }

    public let id: ClusterID
    /// The spec's PascalCase name, e.g. `LevelControl`.
    public let name: String
    /// The ClusterRevision this project implements.
    public let revision: UInt16
    /// On the root node, on any endpoint, or an application's.
    public let classification: ClusterClassification
    /// The base cluster a derived one is flattened over (`ModeBase` for the mode clusters), if any.
    public let base: String?
    public let features: [Feature]
    /// Cluster-specific attributes, without the globals (see ``allAttributes``).
    public let attributes: [AttributeSchema]
    /// Requests the server accepts.
    public let commands: [CommandSchema]
    /// Responses the server generates.
    public let responses: [CommandSchema]
    public let events: [EventSchema]
    /// The cluster's named enumerations.
    public let enums: [EnumSchema]
    /// The cluster's named bitmaps.
    public let bitmaps: [BitmapSchema]
    /// The cluster's named structures.
    public let structs: [StructSchema]

    public init(
        _ id: ClusterID, _ name: String, revision: UInt16, classification: ClusterClassification = .application,
        base: String? = nil, features: [Feature] = [], attributes: [AttributeSchema], commands: [CommandSchema] = [],
        responses: [CommandSchema] = [], events: [EventSchema] = [], enums: [EnumSchema] = [],
        bitmaps: [BitmapSchema] = [], structs: [StructSchema] = []
    ) {
        self.id = id
        self.name = name
        self.revision = revision
        self.classification = classification
        self.base = base
        self.features = features
        self.attributes = attributes
        self.commands = commands
        self.responses = responses
        self.events = events
        self.enums = enums
        self.bitmaps = bitmaps
        self.structs = structs
    }

    /// The feature with this code (`LT`) or name (`Lighting`).
    public func feature(named name: String) -> Feature? {
        let key = SchemaNames.normalized(name)
        return features.first { SchemaNames.normalized($0.code) == key || SchemaNames.normalized($0.name) == key }
    }

    /// The enumeration named `name`.
    public func enumeration(named name: String) -> EnumSchema? { enums.first { $0.name == name } }

    /// The bitmap named `name`.
    public func bitmap(named name: String) -> BitmapSchema? { bitmaps.first { $0.name == name } }

    /// chip-tool's name: `levelcontrol`.
    public var cliName: String { SchemaNames.clusterName(name) }

    /// The cluster's attributes followed by the global ones (interaction-model.md §8).
    public var allAttributes: [AttributeSchema] { attributes + AttributeSchema.globals }

    /// The attribute with this ID, globals included.
    public func attribute(_ id: AttributeID) -> AttributeSchema? { allAttributes.first { $0.id == id } }

    /// The attribute with this name (`current-level`, `CurrentLevel`, `currentLevel`), globals included.
    public func attribute(named name: String) -> AttributeSchema? {
        let key = SchemaNames.normalized(name)
        return allAttributes.first { SchemaNames.normalized($0.name) == key }
    }

    /// The request with this ID.
    public func command(_ id: CommandID) -> CommandSchema? { commands.first { $0.id == id } }

    /// The request with this name (`move-to-level`, `MoveToLevel`).
    public func command(named name: String) -> CommandSchema? {
        let key = SchemaNames.normalized(name)
        return commands.first { SchemaNames.normalized($0.name) == key }
    }

    /// The response command with this ID.
    public func response(_ id: CommandID) -> CommandSchema? { responses.first { $0.id == id } }

    /// The event with this ID.
    public func event(_ id: EventID) -> EventSchema? { events.first { $0.id == id } }

    /// The event with this name (`DoorLockAlarm`, `door-lock-alarm`) or number (`0`, `0x0000`).
    public func event(named name: String) -> EventSchema? {
        let key = SchemaNames.normalized(name)
        if let event = events.first(where: { SchemaNames.normalized($0.name) == key }) { return event }
        guard let number = ClusterValueCodec.parseUnsigned(name), let id = UInt32(exactly: number) else { return nil }
        return event(EventID(id))
    }
}

extension AttributeSchema {
    /// The global attributes every cluster has (EventList is not served since Matter 1.3).
    public static let globals: [AttributeSchema] = [
        AttributeSchema(.generatedCommandList, "GeneratedCommandList", .list(.uint32)),
        AttributeSchema(.acceptedCommandList, "AcceptedCommandList", .list(.uint32)),
        AttributeSchema(.attributeList, "AttributeList", .list(.uint32)),
        AttributeSchema(.featureMap, "FeatureMap", .map32),
        AttributeSchema(.clusterRevision, "ClusterRevision", .uint16),
    ]
}
