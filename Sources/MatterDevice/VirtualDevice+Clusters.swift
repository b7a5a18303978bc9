package import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTransport

/// One cluster an endpoint serves, as the dashboard composes its controls from it.
package struct ServedCluster: Sendable {
    package let id: ClusterID
    package let featureMap: UInt32
    package let attributes: [AttributeID]
    package let commands: [CommandID]
}

extension VirtualDevice {
    /// The clusters `endpoint` serves now (none when it does not exist), in the endpoint's order.
    package func servedClusters(on endpoint: EndpointID) async -> [ServedCluster] {
        let boundDataModel = self.dataModel
        return await node.run { node in
            let servers = boundDataModel.value(in: node).endpoint(endpoint)?.clusters ?? []
            return servers.map { server in
                ServedCluster(
                    id: server.id, featureMap: server.featureMap, attributes: server.attributes.map(\.id),
                    commands: server.acceptedCommands.map(\.id))
            }
        }
    }
}
