public import MatterCore
public import MatterTLV

/// A recording of a node: the value of every attribute a wildcard read returned, by path, as TLV. A twin
/// device is made from one (`matter-emu device --from-dump`), and `matter-emu node dump` writes one.
///
/// Files come in the formats of ``NodeDumpFormat``: Home Assistant's (its diagnostics and test fixtures,
/// python-matter-server's and matterjs-server's nodes: `attributes` keyed `"endpoint/cluster/attribute"`,
/// values as the TLV they carry, structs keyed by field tag, octet strings in base64) and this project's
/// own, which keeps each value's TLV bytes and so loses nothing.
public struct NodeDump: Sendable, Equatable {
    /// Where an attribute is: endpoint, cluster, attribute.
    public struct Path: Hashable, Sendable, Comparable, CustomStringConvertible {
        public var endpoint: EndpointID
        public var cluster: ClusterID
        public var attribute: AttributeID

        public init(_ endpoint: EndpointID, _ cluster: ClusterID, _ attribute: AttributeID) {
            self.endpoint = endpoint
            self.cluster = cluster
            self.attribute = attribute
        }

        /// The dump's key: `1/6/0`, in decimal.
        public var description: String { "\(endpoint.rawValue)/\(cluster.rawValue)/\(attribute.rawValue)" }

        /// Reads a key `1/6/0` (decimal numbers of the identifiers' widths), nil for anything else.
        public init?(key: String) {
            let parts = key.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
                let endpoint = UInt16(parts[0]), let cluster = UInt32(parts[1]), let attribute = UInt32(parts[2])
            else { return nil }
            self.init(EndpointID(endpoint), ClusterID(cluster), AttributeID(attribute))
        }

        public static func < (a: Path, b: Path) -> Bool {
            (a.endpoint.rawValue, a.cluster.rawValue, a.attribute.rawValue)
                < (b.endpoint.rawValue, b.cluster.rawValue, b.attribute.rawValue)
        }
    }

    /// Every recorded value.
    public var attributes: [Path: TLVValue]
    /// The node ID the recording names, if it names one.
    public var nodeID: UInt64?
    /// What reading the file noticed without refusing it: values that did not fit the model's type for
    /// their attribute and are kept as recorded (each names the path and the reason).
    public var warnings: [String] = []

    public init(attributes: [Path: TLVValue], nodeID: UInt64? = nil) {
        self.attributes = attributes
        self.nodeID = nodeID
    }

    public static func == (a: NodeDump, b: NodeDump) -> Bool {
        a.attributes == b.attributes && a.nodeID == b.nodeID
    }

    /// The endpoints, in ascending order.
    public var endpoints: [EndpointID] { Set(attributes.keys.map(\.endpoint)).sorted { $0.rawValue < $1.rawValue } }

    /// The clusters recorded on `endpoint`, in ascending order.
    public func clusters(on endpoint: EndpointID) -> [ClusterID] {
        Set(attributes.keys.filter { $0.endpoint == endpoint }.map(\.cluster)).sorted { $0.rawValue < $1.rawValue }
    }

    /// The value at `endpoint/cluster/attribute`.
    public func value(_ endpoint: EndpointID, _ cluster: ClusterID, _ attribute: AttributeID) -> TLVValue? {
        attributes[Path(endpoint, cluster, attribute)]
    }

    /// The unsigned integers of a list value (AttributeList, ServerList, PartsList...), nil when the
    /// value is absent or not such a list.
    public func identifiers(_ endpoint: EndpointID, _ cluster: ClusterID, _ attribute: AttributeID) -> [UInt64]? {
        guard case .array(let members)? = value(endpoint, cluster, attribute) else { return nil }
        var ids: [UInt64] = []
        for member in members {
            guard case .unsigned(let id) = member.value else { return nil }
            ids.append(id)
        }
        return ids
    }
}

/// A dump file's format.
public enum NodeDumpFormat: String, Sendable, CaseIterable {
    /// Home Assistant's node (python-matter-server's and matterjs-server's): values as JSON, structs keyed by
    /// field tag, octet strings in base64, `node_id`, `attributes`, ...
    case ha
    /// This project's: each value's TLV in hex beside its JSON; reads back exactly.
    case native
}

/// Why a dump file was refused: where in the file, and what is wrong there.
public struct NodeDumpError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where: `attributes["1/6/0"]`, `the file`, `endpoint 2`.
    public let location: String
    public let reason: String

    public init(_ location: String, _ reason: String) {
        self.location = location
        self.reason = reason
    }

    public var description: String { "\(location): \(reason)" }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
