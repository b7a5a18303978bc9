package import MatterCore

/// Mistakes in composing a device's data model (the only errors this module throws; failures of
/// interactions are ``MatterInteraction/StatusIB`` values).
package enum DataModelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Two endpoints with the same number.
    case duplicateEndpoint(EndpointID)
    /// Two servers of the same cluster on one endpoint.
    case duplicateCluster(ClusterID, endpoint: EndpointID)
    /// The cluster server already belongs to an endpoint (one instance serves one endpoint).
    case clusterInUse(ClusterID, endpoint: EndpointID)
    /// The endpoint already belongs to a data model.
    case endpointInUse(EndpointID)
    /// No device preset has this name.
    case unknownPreset(String)
    /// A device type of the specification that no virtual device can be (yet), and why.
    case unservedDeviceType(String, reason: String)

    package var description: String {
        switch self {
        case .duplicateEndpoint(let endpoint):
            "endpoint \(endpoint.rawValue) is listed twice; give every endpoint its own number"
        case .duplicateCluster(let cluster, let endpoint):
            "endpoint \(endpoint.rawValue) already has a server for cluster \(cluster); remove it first"
        case .clusterInUse(let cluster, let endpoint):
            "this server of cluster \(cluster) already serves endpoint \(endpoint.rawValue); create a new instance"
        case .endpointInUse(let endpoint):
            "endpoint \(endpoint.rawValue) already belongs to a data model; create a new endpoint"
        case .unknownPreset(let name):
            "unknown device type \"\(name)\"; use one of: "
                + DevicePreset.all.map(\.cliName).joined(separator: ", ")
        case .unservedDeviceType(let name, let reason):
            "device type \"\(name)\" is not served: \(reason)"
        }
    }
}
