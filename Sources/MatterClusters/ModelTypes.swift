public import MatterCore

/// The range of a value (numbers) or the number of entries (lists), as the specification constrains it.
/// String and octet-string lengths are in their ``ClusterDataType``.
public struct ValueConstraint: Hashable, Sendable {
    public let min: Int64?
    public let max: Int64?

    public init(min: Int64?, max: Int64?) {
        self.min = min
        self.max = max
    }

    /// True when `value` is within the bounds.
    public func allows(_ value: Int64) -> Bool {
        (min.map { value >= $0 } ?? true) && (max.map { value <= $0 } ?? true)
    }

    /// True when `value` (an unsigned number) is within the bounds.
    public func allows(unsigned value: UInt64) -> Bool {
        guard let signed = Int64(exactly: value) else { return max == nil }
        return allows(signed)
    }
}

/// An attribute's qualities besides nullability (Matter Core 7.7).
public struct AttributeQuality: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// `N`: kept across restarts.
    public static let nonVolatile = AttributeQuality(rawValue: 1 << 0)
    /// `F`: never changes.
    public static let fixed = AttributeQuality(rawValue: 1 << 1)
    /// `S`: part of a scene.
    public static let scene = AttributeQuality(rawValue: 1 << 2)
    /// `C`: changes are not reported.
    public static let changesOmitted = AttributeQuality(rawValue: 1 << 3)
    /// `Q`: reported less often than it changes.
    public static let quieterReporting = AttributeQuality(rawValue: 1 << 4)
    /// `A`: written in atomic writes.
    public static let atomic = AttributeQuality(rawValue: 1 << 5)
    /// `L`: may need a large message.
    public static let largeMessage = AttributeQuality(rawValue: 1 << 6)
    /// `I`: one per node.
    public static let singleton = AttributeQuality(rawValue: 1 << 7)
    /// `K`: a diagnostics value.
    public static let diagnostics = AttributeQuality(rawValue: 1 << 8)
}

/// A default value the specification gives for an attribute.
public enum ModelDefault: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case text(String)
    case emptyList
}

/// Where a cluster belongs (Matter Core 7.10): on the root node, on any endpoint, or an application's.
public enum ClusterClassification: String, Hashable, Sendable {
    case node
    case endpoint
    case application
}

/// A named enumeration of a cluster.
public struct EnumSchema: Hashable, Sendable {
    public struct Value: Hashable, Sendable {
        public let value: UInt64
        public let name: String
        public init(_ value: UInt64, _ name: String) {
            self.value = value
            self.name = name
        }
    }

    public let name: String
    public let bits: Int
    public let values: [Value]

    public init(_ name: String, bits: Int, _ values: [Value]) {
        self.name = name
        self.bits = bits
        self.values = values
    }

    /// The value named `name` (any case style).
    public func value(named name: String) -> Value? {
        let key = SchemaNames.normalized(name)
        return values.first { SchemaNames.normalized($0.name) == key }
    }
}

/// A named bitmap of a cluster: its flags and multi-bit fields as masks.
public struct BitmapSchema: Hashable, Sendable {
    public struct Field: Hashable, Sendable {
        public let name: String
        public let mask: UInt64
        public init(_ name: String, mask: UInt64) {
            self.name = name
            self.mask = mask
        }
    }

    public let name: String
    public let bits: Int
    public let fields: [Field]

    public init(_ name: String, bits: Int, _ fields: [Field]) {
        self.name = name
        self.bits = bits
        self.fields = fields
    }
}

/// A device type of the specification's device library and the clusters it requires or allows.
public struct DeviceTypeSchema: Hashable, Sendable {
    /// Which side of a cluster a device type has.
    public enum Side: String, Hashable, Sendable {
        case server
        case client
    }

    /// One cluster of the device type.
    public struct ClusterRequirement: Hashable, Sendable {
        public let cluster: ClusterID
        public let name: String
        public let side: Side
        public let conformance: Conformance
        /// Feature codes the device type makes mandatory on the cluster.
        public let features: [String]
        /// Attributes the device type makes mandatory on the cluster (beyond the cluster's own conformance).
        public let attributes: [String]
        /// Commands the device type makes mandatory on the cluster (beyond the cluster's own conformance).
        public let commands: [String]

        public init(
            _ cluster: ClusterID, _ name: String, _ side: Side, conformance: Conformance, features: [String] = [],
            attributes: [String] = [], commands: [String] = []
        ) {
            self.cluster = cluster
            self.name = name
            self.side = side
            self.conformance = conformance
            self.features = features
            self.attributes = attributes
            self.commands = commands
        }
    }

    /// A device type this one is composed of (Matter Core 9.2, the device library's element requirements): a
    /// Refrigerator's Temperature Controlled Cabinet, an EVSE's Power Source, with what the part must have beyond
    /// its own device type (a Power Source with the BAT feature, a Descriptor with TAGLIST).
    public struct PartRequirement: Hashable, Sendable {
        /// The part's device-type ID.
        public let deviceType: UInt32
        /// The part's device-type name in PascalCase.
        public let name: String
        public let conformance: Conformance
        /// What the part must serve beyond its own device type's requirements.
        public let clusters: [ClusterRequirement]

        public init(_ deviceType: UInt32, _ name: String, conformance: Conformance, clusters: [ClusterRequirement] = [])
        {
            self.deviceType = deviceType
            self.name = name
            self.conformance = conformance
            self.clusters = clusters
        }
    }

    public let id: UInt32
    /// The specification's name in PascalCase: `DimmableLight`.
    public let name: String
    public let revision: UInt16
    /// `simple`, `utility`, `node`, `base`, ...
    public let classification: String
    public let clusters: [ClusterRequirement]
    /// The device types it is composed of, in the specification's order (a type may appear more than once).
    public let parts: [PartRequirement]

    public init(
        _ id: UInt32, _ name: String, revision: UInt16, classification: String, clusters: [ClusterRequirement],
        parts: [PartRequirement] = []
    ) {
        self.id = id
        self.name = name
        self.revision = revision
        self.classification = classification
        self.clusters = clusters
        self.parts = parts
    }

    /// The specification's name in kebab case, as `--type` takes it: `dimmable-light`.
    public var cliName: String { SchemaNames.kebabCase(name) }

    /// The device type named `name` (`dimmable-light`, `DimmableLight`) or with this number.
    public static func named(_ name: String) -> DeviceTypeSchema? {
        let key = SchemaNames.normalized(name)
        if let match = all.first(where: { SchemaNames.normalized($0.name) == key }) { return match }
        guard let number = ClusterValueCodec.parseUnsigned(name), let id = UInt32(exactly: number) else { return nil }
        return all.first { $0.id == id }
    }
}
