package import MatterCore
package import MatterTLV

/// ClusterPathIB (list): one cluster instance (DataVersionFilterIB's path).
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | Node | uint64, optional |
/// | 1 | Endpoint | uint16 |
/// | 2 | Cluster | uint32 |
package struct ClusterPathIB: Hashable, Sendable {
    package var node: NodeID?
    package var endpoint: EndpointID?
    package var cluster: ClusterID?

    package init(endpoint: EndpointID?, cluster: ClusterID?, node: NodeID? = nil) {
        self.endpoint = endpoint
        self.cluster = cluster
        self.node = node
    }
}

extension ClusterPathIB: TLVEncodable, TLVDecodable {
    package func encode(to writer: inout TLVWriter, tag: TLVTag) {
        writer.putList(tag: tag) { w in
            w.put(node?.rawValue, tag: .context(0))
            w.put(endpoint?.rawValue, tag: .context(1))
            w.put(cluster?.rawValue, tag: .context(2))
        }
    }

    package init(tlv element: TLVElement) throws(TLVError) {
        _ = try element.ibMembers("ClusterPathIB")
        node = try element.optional(0, UInt64.self).map(NodeID.init)
        endpoint = try element.optional(1, UInt16.self).map(EndpointID.init)
        cluster = try element.optional(2, UInt32.self).map(ClusterID.init)
    }
}

/// DataVersionFilterIB (structure): "I already have this version of this cluster instance".
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | Path | ClusterPathIB |
/// | 1 | DataVersion | uint32 |
package struct DataVersionFilterIB: Hashable, Sendable {
    package var path: ClusterPathIB
    package var dataVersion: UInt32

    package init(endpoint: EndpointID, cluster: ClusterID, dataVersion: UInt32) {
        path = ClusterPathIB(endpoint: endpoint, cluster: cluster)
        self.dataVersion = dataVersion
    }

    package init(path: ClusterPathIB, dataVersion: UInt32) {
        self.path = path
        self.dataVersion = dataVersion
    }
}

extension DataVersionFilterIB: TLVEncodable, TLVDecodable {
    package func encode(to writer: inout TLVWriter, tag: TLVTag) {
        writer.putStructure(tag: tag) { w in
            w.put(path, tag: .context(0))
            w.put(dataVersion, tag: .context(1))
        }
    }

    package init(tlv element: TLVElement) throws(TLVError) {
        _ = try element.ibMembers("DataVersionFilterIB")
        path = try element.required(0)
        dataVersion = try element.required(1)
    }
}
