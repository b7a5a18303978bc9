public import MatterCore
public import MatterTLV

/// EventPathIB (list): which event(s) a request or report is about; absent fields are wildcards.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | Node | uint64, optional |
/// | 1 | Endpoint | uint16, optional |
/// | 2 | Cluster | uint32, optional |
/// | 3 | Event | uint32, optional |
/// | 4 | IsUrgent | bool, optional |
public struct EventPathIB: Hashable, Sendable, CustomStringConvertible {
    public var node: NodeID?
    public var endpoint: EndpointID?
    public var cluster: ClusterID?
    public var event: EventID?
    public var isUrgent: Bool?

    public init(
        endpoint: EndpointID? = nil, cluster: ClusterID? = nil, event: EventID? = nil,
        isUrgent: Bool? = nil, node: NodeID? = nil
    ) {
        self.endpoint = endpoint
        self.cluster = cluster
        self.event = event
        self.isUrgent = isUrgent
        self.node = node
    }

    /// The path of one concrete event.
    public init(_ path: ConcreteEventPath) {
        self.init(endpoint: path.endpoint, cluster: path.cluster, event: path.event)
    }

    /// The concrete event, when endpoint, cluster and event are all given.
    public var concrete: ConcreteEventPath? {
        guard let endpoint, let cluster, let event else { return nil }
        return ConcreteEventPath(endpoint: endpoint, cluster: cluster, event: event)
    }

    /// True when `path` is one of the events this (possibly wildcard) path names.
    public func matches(_ path: ConcreteEventPath) -> Bool {
        (endpoint ?? path.endpoint) == path.endpoint && (cluster ?? path.cluster) == path.cluster
            && (event ?? path.event) == path.event
    }

    public var description: String {
        "\(endpoint.map { String($0.rawValue) } ?? "*")/\(cluster?.description ?? "*")/\(event?.description ?? "*")"
    }
}

extension EventPathIB: TLVEncodable, TLVDecodable {
    public func encode(to writer: inout TLVWriter, tag: TLVTag) {
        writer.putList(tag: tag) { w in
            w.put(node?.rawValue, tag: .context(0))
            w.put(endpoint?.rawValue, tag: .context(1))
            w.put(cluster?.rawValue, tag: .context(2))
            w.put(event?.rawValue, tag: .context(3))
            w.put(isUrgent, tag: .context(4))
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        _ = try element.ibMembers("EventPathIB")
        node = try element.optional(0, UInt64.self).map(NodeID.init)
        endpoint = try element.optional(1, UInt16.self).map(EndpointID.init)
        cluster = try element.optional(2, UInt32.self).map(ClusterID.init)
        event = try element.optional(3, UInt32.self).map(EventID.init)
        isUrgent = try element.optional(4)
    }
}

/// One event of one cluster instance.
public struct ConcreteEventPath: Hashable, Sendable, CustomStringConvertible {
    public var endpoint: EndpointID
    public var cluster: ClusterID
    public var event: EventID

    public init(endpoint: EndpointID, cluster: ClusterID, event: EventID) {
        self.endpoint = endpoint
        self.cluster = cluster
        self.event = event
    }

    public var description: String { "\(endpoint.rawValue)/\(cluster)/\(event)" }
}
