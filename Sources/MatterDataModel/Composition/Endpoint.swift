import MatterClusters
package import MatterCore

/// One endpoint of a node: its number, the device types it implements, and its cluster servers.
///
/// Build it, add servers, then hand it to a ``DeviceDataModel`` (which adds the Descriptor cluster if
/// missing). Servers may also be added to an endpoint that is already part of a data model: they start
/// at once and the Descriptor's ServerList reports the change. Confined to the node's queue once part
/// of a data model.
package final class Endpoint {
    /// The endpoint number.
    package let id: EndpointID
    /// Device types, as the Descriptor's DeviceTypeList reports them.
    package private(set) var deviceTypes: [DeviceType]
    /// Client clusters, as the Descriptor's ClientList reports them.
    package var clientClusters: [ClusterID]
    /// The endpoints this one is composed of (a Refrigerator's cabinet), as its Descriptor's PartsList reports them
    /// (tree pattern, Matter Core 9.2.1). Endpoint 0 and an Aggregator list theirs from the data model instead.
    package var parts: [EndpointID] = []
    /// Semantic tags telling this endpoint apart from its siblings (the Descriptor's TagList, with the TAGLIST
    /// feature when not empty).
    package var tags: [SemanticTag] = []
    /// Server clusters, by ascending cluster ID.
    package private(set) var clusters: [ClusterServer] = []
    /// The data model the endpoint belongs to.
    package internal(set) weak var dataModel: DeviceDataModel?

    package init(_ id: EndpointID, deviceTypes: [DeviceType], clientClusters: [ClusterID] = []) {
        self.id = id
        self.deviceTypes = deviceTypes
        self.clientClusters = clientClusters
    }

    /// An endpoint with these servers (each a new instance with a cluster ID of its own).
    package convenience init(
        _ id: EndpointID, deviceTypes: [DeviceType], clusters: [ClusterServer], clientClusters: [ClusterID] = []
    ) throws(DataModelError) {
        self.init(id, deviceTypes: deviceTypes, clientClusters: clientClusters)
        for server in clusters { try add(server) }
    }

    /// Adds a server. Throws when the endpoint already serves that cluster or the server already
    /// belongs to an endpoint. On a running data model the server starts at once.
    package func add(_ server: ClusterServer) throws(DataModelError) {
        if let owner = server.endpoint { throw .clusterInUse(server.id, endpoint: owner.id) }
        guard cluster(server.id) == nil else { throw .duplicateCluster(server.id, endpoint: id) }
        server.endpoint = self
        clusters.append(server)
        clusters.sort { $0.id < $1.id }
        dataModel?.serverAdded(server, to: self)
    }

    /// Adds a new server without notifying the data model (composition before start).
    func insert(_ server: ClusterServer) {
        server.endpoint = self
        clusters.append(server)
        clusters.sort { $0.id < $1.id }
    }

    /// Removes the server of cluster `id` (it stops first); returns it.
    @discardableResult
    package func remove(_ cluster: ClusterID) -> ClusterServer? {
        guard let index = clusters.firstIndex(where: { $0.id == cluster }) else { return nil }
        let server = clusters.remove(at: index)
        dataModel?.serverRemoved(server, from: self)
        server.endpoint = nil
        return server
    }

    /// The server of cluster `id`.
    package func cluster(_ id: ClusterID) -> ClusterServer? { clusters.first { $0.id == id } }

    /// The first server of type `T`.
    package func cluster<T: ClusterServer>(_ type: T.Type = T.self) -> T? {
        for server in clusters { if let match = server as? T { return match } }
        return nil
    }

    /// Adds a device type (reported by the Descriptor).
    package func addDeviceType(_ deviceType: DeviceType) {
        guard !deviceTypes.contains(deviceType) else { return }
        deviceTypes.append(deviceType)
        dataModel?.descriptorChanged(on: self, .Descriptor.deviceTypeList)
    }

    /// True when the endpoint is an Aggregator (a bridge's endpoint that lists its bridged devices).
    package var isAggregator: Bool { deviceTypes.contains { $0.id.rawValue == DeviceTypeSchema.aggregator.id } }

    /// True when the endpoint is a bridged device (it carries the Bridged Node device type).
    package var isBridgedNode: Bool { deviceTypes.contains { $0.id.rawValue == DeviceTypeSchema.bridgedNode.id } }
}
