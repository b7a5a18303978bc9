public import MatterCore
package import MatterTLV

/// CommandPathIB (list): the command a CommandDataIB invokes or answers. An absent endpoint is a
/// wildcard (group invokes only); cluster and command are required.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | Endpoint | uint16, optional |
/// | 1 | Cluster | uint32 |
/// | 2 | Command | uint32 |
package struct CommandPathIB: Hashable, Sendable, CustomStringConvertible {
    package var endpoint: EndpointID?
    package var cluster: ClusterID
    package var command: CommandID

    package init(endpoint: EndpointID?, cluster: ClusterID, command: CommandID) {
        self.endpoint = endpoint
        self.cluster = cluster
        self.command = command
    }

    /// The path of one concrete command.
    package init(_ path: ConcreteCommandPath) {
        self.init(endpoint: path.endpoint, cluster: path.cluster, command: path.command)
    }

    /// The concrete command, when the endpoint is given.
    package var concrete: ConcreteCommandPath? {
        endpoint.map { ConcreteCommandPath(endpoint: $0, cluster: cluster, command: command) }
    }

    package var description: String { "\(endpoint.map { String($0.rawValue) } ?? "*")/\(cluster)/\(command)" }
}

extension CommandPathIB: TLVEncodable, TLVDecodable {
    package func encode(to writer: inout TLVWriter, tag: TLVTag) {
        writer.putList(tag: tag) { w in
            w.put(endpoint?.rawValue, tag: .context(0))
            w.put(cluster.rawValue, tag: .context(1))
            w.put(command.rawValue, tag: .context(2))
        }
    }

    package init(tlv element: TLVElement) throws(TLVError) {
        _ = try element.ibMembers("CommandPathIB")
        endpoint = try element.optional(0, UInt16.self).map(EndpointID.init)
        cluster = ClusterID(try element.required(1, UInt32.self))
        command = CommandID(try element.required(2, UInt32.self))
    }
}

/// One command of one cluster instance.
public struct ConcreteCommandPath: Hashable, Sendable, CustomStringConvertible {
    public var endpoint: EndpointID
    public var cluster: ClusterID
    public var command: CommandID

    public init(endpoint: EndpointID, cluster: ClusterID, command: CommandID) {
        self.endpoint = endpoint
        self.cluster = cluster
        self.command = command
    }

    public var description: String { "\(endpoint.rawValue)/\(cluster)/\(command)" }
}
