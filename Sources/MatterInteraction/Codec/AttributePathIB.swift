public import MatterCore
public import MatterTLV

/// AttributePathIB (list): which attribute(s) a request or report is about. An absent endpoint,
/// cluster or attribute is a wildcard in requests.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | EnableTagCompression | bool, optional |
/// | 1 | Node | uint64, optional |
/// | 2 | Endpoint | uint16, optional |
/// | 3 | Cluster | uint32, optional |
/// | 4 | Attribute | uint32, optional |
/// | 5 | ListIndex | uint16 or null, optional (null = append an item) |
/// | 6 | WildcardPathFlags | uint32, optional |
public struct AttributePathIB: Hashable, Sendable, CustomStringConvertible {
    /// ListIndex: `null` appends an item to a list; a number addresses one item (not used here).
    public enum ListIndex: Hashable, Sendable {
        case null
        case index(UInt16)
    }

    public var enableTagCompression: Bool?
    public var node: NodeID?
    public var endpoint: EndpointID?
    public var cluster: ClusterID?
    public var attribute: AttributeID?
    public var listIndex: ListIndex?
    public var wildcardPathFlags: UInt32?

    public init(
        endpoint: EndpointID? = nil, cluster: ClusterID? = nil, attribute: AttributeID? = nil,
        listIndex: ListIndex? = nil, node: NodeID? = nil
    ) {
        self.endpoint = endpoint
        self.cluster = cluster
        self.attribute = attribute
        self.listIndex = listIndex
        self.node = node
    }

    /// The path of one concrete attribute.
    public init(_ path: ConcreteAttributePath, listIndex: ListIndex? = nil) {
        self.init(endpoint: path.endpoint, cluster: path.cluster, attribute: path.attribute, listIndex: listIndex)
    }

    /// The concrete attribute, when endpoint, cluster and attribute are all given.
    public var concrete: ConcreteAttributePath? {
        guard let endpoint, let cluster, let attribute else { return nil }
        return ConcreteAttributePath(endpoint: endpoint, cluster: cluster, attribute: attribute)
    }

    /// True when `path` is one of the attributes this (possibly wildcard) path names.
    public func matches(_ path: ConcreteAttributePath) -> Bool {
        (endpoint ?? path.endpoint) == path.endpoint && (cluster ?? path.cluster) == path.cluster
            && (attribute ?? path.attribute) == path.attribute
    }

    /// `1/0x00000006/0x00000000`, `*` for wildcards, `[+]` for an append.
    public var description: String {
        let e = endpoint.map { String($0.rawValue) } ?? "*"
        let c = cluster?.description ?? "*"
        let a = attribute?.description ?? "*"
        switch listIndex {
        case nil: return "\(e)/\(c)/\(a)"
        case .null: return "\(e)/\(c)/\(a)[+]"
        case .index(let i): return "\(e)/\(c)/\(a)[\(i)]"
        }
    }
}

extension AttributePathIB: TLVEncodable, TLVDecodable {
    public func encode(to writer: inout TLVWriter, tag: TLVTag) {
        writer.putList(tag: tag) { w in
            w.put(enableTagCompression, tag: .context(0))
            w.put(node?.rawValue, tag: .context(1))
            w.put(endpoint?.rawValue, tag: .context(2))
            w.put(cluster?.rawValue, tag: .context(3))
            w.put(attribute?.rawValue, tag: .context(4))
            switch listIndex {
            case nil: break
            case .null: w.putNull(tag: .context(5))
            case .index(let index): w.put(index, tag: .context(5))
            }
            w.put(wildcardPathFlags, tag: .context(6))
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        _ = try element.ibMembers("AttributePathIB")
        enableTagCompression = try element.optional(0)
        node = try element.optional(1, UInt64.self).map(NodeID.init)
        endpoint = try element.optional(2, UInt16.self).map(EndpointID.init)
        cluster = try element.optional(3, UInt32.self).map(ClusterID.init)
        attribute = try element.optional(4, UInt32.self).map(AttributeID.init)
        if let index = element[context: 5] {
            listIndex = index.isNull ? .null : .index(try UInt16(tlv: index))
        }
        wildcardPathFlags = try element.optional(6)
    }
}

/// One attribute of one cluster instance.
public struct ConcreteAttributePath: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var endpoint: EndpointID
    public var cluster: ClusterID
    public var attribute: AttributeID

    public init(endpoint: EndpointID, cluster: ClusterID, attribute: AttributeID) {
        self.endpoint = endpoint
        self.cluster = cluster
        self.attribute = attribute
    }

    public static func < (a: Self, b: Self) -> Bool {
        (a.endpoint, a.cluster, a.attribute) < (b.endpoint, b.cluster, b.attribute)
    }

    public var description: String { "\(endpoint.rawValue)/\(cluster)/\(attribute)" }
}
