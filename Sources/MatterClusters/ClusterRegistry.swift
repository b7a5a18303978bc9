public import MatterCore

/// Every cluster schema this project knows, looked up by ID or by chip-tool name.
public struct ClusterRegistry: Sendable {
    /// The schemas, in cluster-ID order.
    public let clusters: [ClusterSchema]

    public init(_ clusters: [ClusterSchema]) {
        self.clusters = clusters.sorted { $0.id < $1.id }
    }

    /// The schema of cluster `id`.
    public func cluster(_ id: ClusterID) -> ClusterSchema? { clusters.first { $0.id == id } }

    /// The schema named `name` (`levelcontrol`, `LevelControl`, `level-control`), or with this number
    /// (`0x0008`, `8`).
    public func cluster(named name: String) -> ClusterSchema? {
        let key = SchemaNames.normalized(name)
        if let match = clusters.first(where: { SchemaNames.normalized($0.name) == key }) { return match }
        if let number = ClusterValueCodec.parseUnsigned(name), let id = UInt32(exactly: number) {
            return cluster(ClusterID(id))
        }
        return nil
    }

    /// Like ``cluster(named:)``, but throws ``ClusterSchemaError/unknownCluster(_:)`` when there is none.
    public func requireCluster(named name: String) throws(ClusterSchemaError) -> ClusterSchema {
        guard let schema = cluster(named: name) else { throw .unknownCluster(name) }
        return schema
    }
}

extension ClusterSchema {
    /// Like ``attribute(named:)``, also accepting an attribute number; throws when there is none.
    public func requireAttribute(named name: String) throws(ClusterSchemaError) -> AttributeSchema {
        if let schema = attribute(named: name) { return schema }
        if let number = ClusterValueCodec.parseUnsigned(name), let id = UInt32(exactly: number),
            let schema = attribute(AttributeID(id))
        {
            return schema
        }
        throw .unknownAttribute(name, cluster: cliName)
    }

    /// Like ``command(named:)``, also accepting a command number; throws when there is none.
    public func requireCommand(named name: String) throws(ClusterSchemaError) -> CommandSchema {
        if let schema = command(named: name) { return schema }
        if let number = ClusterValueCodec.parseUnsigned(name), let id = UInt32(exactly: number),
            let schema = command(CommandID(id))
        {
            return schema
        }
        throw .unknownCommand(name, cluster: cliName)
    }
}
