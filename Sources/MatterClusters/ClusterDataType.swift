/// The type of an attribute, a command field or a struct field, as far as TLV encoding and display
/// need it. Semantic types of the spec (vendor-id, node-id, fabric-idx, epoch-s...) map to the
/// integer of their width.
public indirect enum ClusterDataType: Hashable, Sendable, CustomStringConvertible {
    /// `bool`.
    case boolean
    /// `uint8`...`uint64` and the unsigned semantic types; `bits` is 8, 16, 32 or 64.
    case unsigned(bits: Int)
    /// `int8`...`int64`.
    case signed(bits: Int)
    /// `enum8`/`enum16`: an unsigned integer with named values.
    case enumeration(bits: Int)
    /// `map8`...`map64`: an unsigned integer of flags.
    case bitmap(bits: Int)
    /// `single`.
    case float
    /// `double`.
    case double
    /// A UTF-8 string of at most `maxLength` bytes.
    case string(maxLength: Int?)
    /// An octet string of at most `maxLength` bytes.
    case octets(maxLength: Int?)
    /// A list (TLV array) of `element`.
    case list(ClusterDataType)
    /// A structure.
    case structure(StructSchema)

    public static let uint8 = ClusterDataType.unsigned(bits: 8)
    public static let uint16 = ClusterDataType.unsigned(bits: 16)
    public static let uint32 = ClusterDataType.unsigned(bits: 32)
    public static let uint64 = ClusterDataType.unsigned(bits: 64)
    public static let int32 = ClusterDataType.signed(bits: 32)
    public static let enum8 = ClusterDataType.enumeration(bits: 8)
    public static let enum16 = ClusterDataType.enumeration(bits: 16)
    public static let map8 = ClusterDataType.bitmap(bits: 8)
    public static let map16 = ClusterDataType.bitmap(bits: 16)
    public static let map32 = ClusterDataType.bitmap(bits: 32)
    /// `string` without a length limit.
    public static let text = ClusterDataType.string(maxLength: nil)
    /// `octstr` without a length limit.
    public static let bytes = ClusterDataType.octets(maxLength: nil)

    /// The spec's name for the type: `uint16`, `enum8`, `list<uint32>`, `struct DeviceTypeStruct`.
    public var description: String {
        switch self {
        case .boolean: "bool"
        case .unsigned(let bits): "uint\(bits)"
        case .signed(let bits): "int\(bits)"
        case .enumeration(let bits): "enum\(bits)"
        case .bitmap(let bits): "map\(bits)"
        case .float: "single"
        case .double: "double"
        case .string(let max): max.map { "string(\($0))" } ?? "string"
        case .octets(let max): max.map { "octstr(\($0))" } ?? "octstr"
        case .list(let element): "list<\(element)>"
        case .structure(let schema): "struct \(schema.name)"
        }
    }

    /// True for lists.
    public var isList: Bool {
        if case .list = self { true } else { false }
    }
}

/// A named structure type and its fields.
public struct StructSchema: Hashable, Sendable {
    /// The spec's name, e.g. `AccessControlEntryStruct`.
    public let name: String
    /// Fields in tag order.
    public let fields: [FieldSchema]
    /// True when the struct carries a FabricIndex field (tag 0xFE) and lives in a fabric-scoped list.
    public let isFabricScoped: Bool

    public init(_ name: String, fabricScoped: Bool = false, _ fields: [FieldSchema]) {
        self.name = name
        self.fields = fields
        self.isFabricScoped = fabricScoped
    }

    /// The field with this context tag.
    public func field(tag: UInt8) -> FieldSchema? { fields.first { $0.tag == tag } }

    /// The field whose name matches `name` (spec PascalCase, camelCase or kebab-case, any letter case).
    public func field(named name: String) -> FieldSchema? {
        let key = SchemaNames.normalized(name)
        return fields.first { SchemaNames.normalized($0.name) == key }
    }
}

/// A field of a command or a structure.
public struct FieldSchema: Hashable, Sendable {
    /// The context tag inside the enclosing structure.
    public let tag: UInt8
    /// The spec's PascalCase name, e.g. `TransitionTime`.
    public let name: String
    public let type: ClusterDataType
    /// May be absent.
    public let isOptional: Bool
    /// May be `null`.
    public let isNullable: Bool
    /// The specification's name of the value's type when it is named: `EffectIdentifierEnum`.
    public let typeName: String?
    /// When the field is present.
    public let conformance: Conformance
    /// The value's range (numbers) or entry count (lists).
    public let constraint: ValueConstraint?

    public init(
        _ tag: UInt8, _ name: String, _ type: ClusterDataType, optional: Bool = false,
        nullable: Bool = false, typeName: String? = nil, conformance: Conformance? = nil,
        constraint: ValueConstraint? = nil
    ) {
        self.typeName = typeName
        self.conformance = conformance ?? (optional ? .optional : .mandatory)
        self.constraint = constraint
        self.tag = tag
        self.name = name
        self.type = type
        self.isOptional = optional
        self.isNullable = nullable
    }

    /// The name as chip-tool writes it in JSON and as a `--flag`: `transitionTime`.
    public var jsonName: String { SchemaNames.camelCase(name) }

    /// The FabricIndex field every fabric-scoped struct carries (tag 0xFE). Optional when writing: the
    /// server sets it to the accessing fabric.
    public static let fabricIndex = FieldSchema(0xFE, "FabricIndex", .uint8, optional: true)
}
