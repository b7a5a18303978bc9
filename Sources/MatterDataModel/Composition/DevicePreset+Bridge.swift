import MatterClusters
package import MatterCore
import MatterInteraction
import MatterTLV

extension DevicePreset {
    /// True for the Aggregator: endpoint 1 of a bridge (docs/BRIDGES.md), whose PartsList lists its bridged
    /// devices.
    package var isBridge: Bool { schema.id == DeviceTypeSchema.aggregator.id }

    /// A bridged device of this type on endpoint `id`: its device type and Bridged Node, its servers, and
    /// Bridged Device Basic Information (NodeLabel `label`, UniqueID `uniqueID`, ProductName, reachable).
    package func makeBridgedEndpoint(_ id: EndpointID, label: String, uniqueID: String) throws(DataModelError)
        -> Endpoint
    {
        guard !isBridge else {
            throw .unservedDeviceType(cliName, reason: "a bridge bridges devices, not another bridge")
        }
        let bridgedNode = DeviceType(
            DeviceTypeID(DeviceTypeSchema.bridgedNode.id), revision: DeviceTypeSchema.bridgedNode.revision)
        let endpoints = makeApplicationEndpoints(from: id)
        guard endpoints.count == 1, let endpoint = endpoints.first else {
            throw .unservedDeviceType(
                cliName, reason: "a device made of several endpoints cannot be bridged (it is a node of its own)")
        }
        endpoint.addDeviceType(bridgedNode)
        let requirement = DeviceTypeSchema.ClusterRequirement(
            .bridgedDeviceBasicInformation, "BridgedDeviceBasicInformation", .server, conformance: .mandatory)
        guard case .success(let made) = Self.server(for: requirement), let information = made as? GenericClusterServer
        else {
            throw .unservedDeviceType(cliName, reason: "Bridged Device Basic Information could not be served")
        }
        let values: [(AttributeID, TLVValue)] = [
            (.BridgedDeviceBasicInformation.nodeLabel, .utf8(String(label.utf8.prefix(32)) ?? "")),
            (.BridgedDeviceBasicInformation.uniqueID, .utf8(String(uniqueID.utf8.prefix(32)) ?? "")),
            (.BridgedDeviceBasicInformation.productName, .utf8(String(productName.utf8.prefix(32)) ?? "")),
            (.BridgedDeviceBasicInformation.vendorName, .utf8("matter-emu")),
            (.BridgedDeviceBasicInformation.reachable, .bool(true)),
        ]
        for (attribute, value) in values {
            do throws(StatusIB) {
                try information.set(attribute, value)
            } catch {
                throw .unservedDeviceType(cliName, reason: "Bridged Device Basic Information refused \(attribute)")
            }
        }
        endpoint.insert(information)
        return endpoint
    }
}
