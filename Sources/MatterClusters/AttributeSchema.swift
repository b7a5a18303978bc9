public import MatterCore
public import MatterTLV

/// One attribute of a cluster: its type and qualities.
public struct AttributeSchema: Hashable, Sendable {
    public let id: AttributeID
    /// The spec's PascalCase name, e.g. `CurrentLevel`.
    public let name: String
    public let type: ClusterDataType
    /// May be `null` (quality `X`).
    public let isNullable: Bool
    /// Privilege needed to read.
    public let readPrivilege: Privilege
    /// Privilege needed to write; nil for read-only attributes.
    public let writePrivilege: Privilege?
    /// A fabric-scoped list (access `F`): each entry belongs to one fabric and reads may be filtered.
    public let isFabricScoped: Bool
    /// Writes must be timed (access `T`).
    public let requiresTimedWrite: Bool
    /// Not mandatory (optional or feature-dependent).
    public let isOptional: Bool
    /// Readable only by the fabric that wrote it (access `S`).
    public let isFabricSensitive: Bool
    /// The specification's name of the value's type when it is named: `StartUpOnOffEnum`, `percent`.
    public let typeName: String?
    public let quality: AttributeQuality
    /// When the attribute is part of the cluster.
    public let conformance: Conformance
    /// The value's range (numbers) or entry count (lists).
    public let constraint: ValueConstraint?
    /// The specification's default, where it gives a plain value.
    public let defaultValue: ModelDefault?

    public init(
        _ id: AttributeID, _ name: String, _ type: ClusterDataType, nullable: Bool = false,
        read: Privilege = .view, write: Privilege? = nil, fabricScoped: Bool = false,
        fabricSensitive: Bool = false, timed: Bool = false, optional: Bool = false, typeName: String? = nil,
        quality: AttributeQuality = [], conformance: Conformance? = nil, constraint: ValueConstraint? = nil,
        defaultValue: ModelDefault? = nil
    ) {
        self.isFabricSensitive = fabricSensitive
        self.typeName = typeName
        self.quality = quality
        self.conformance = conformance ?? (optional ? .optional : .mandatory)
        self.constraint = constraint
        self.defaultValue = defaultValue
        self.id = id
        self.name = name
        self.type = type
        self.isNullable = nullable
        self.readPrivilege = read
        self.writePrivilege = write
        self.isFabricScoped = fabricScoped
        self.requiresTimedWrite = timed
        self.isOptional = optional
    }

    /// True when the attribute accepts writes.
    public var isWritable: Bool { writePrivilege != nil }

    /// chip-tool's name: `current-level`.
    public var cliName: String { SchemaNames.kebabCase(name) }

    /// Encodes a value typed by a user (`true`, `0x10`, `hex:0011`, `null`, JSON for lists and
    /// structs) as this attribute's TLV.
    public func encode(cliValue text: String) throws(ClusterSchemaError) -> TLVValue {
        try ClusterValueCodec.encode(text: text, as: type, nullable: isNullable, context: cliName)
    }

    /// The value as JSON text, struct fields named (`{"deviceType":22,"revision":3}`).
    public func format(_ value: TLVValue) -> String { ClusterValueCodec.format(value, as: type) }
}
