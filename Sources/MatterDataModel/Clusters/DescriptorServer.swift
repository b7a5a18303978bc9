import MatterClusters
package import MatterCore
package import MatterInteraction
package import MatterTLV

/// Descriptor 0x001D (rev 2), generated from the composition: DeviceTypeList and ClientList from the
/// endpoint, ServerList from its servers, PartsList = every other endpoint on endpoint 0 and empty on
/// the others (leaf endpoints). The data model adds one to every endpoint that lacks it.
package final class DescriptorServer: ClusterServer {
    package init() { super.init(id: .descriptor, revision: ClusterSchema.descriptor.revision) }

    override package var attributes: [AttributeInfo] {
        Self.attributeInfos(
            .descriptor,
            [.Descriptor.deviceTypeList, .Descriptor.serverList, .Descriptor.clientList, .Descriptor.partsList])
    }

    override package func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        guard let endpoint else { throw StatusIB(.unsupportedAttribute) }
        switch attribute {
        case .Descriptor.deviceTypeList:
            return .array(
                endpoint.deviceTypes.map { type in
                    TLVElement(
                        .structure([
                            TLVElement(tag: .context(0), .unsigned(UInt64(type.id.rawValue))),
                            TLVElement(tag: .context(1), .unsigned(UInt64(type.revision))),
                        ]))
                })
        case .Descriptor.serverList:
            return .array(endpoint.clusters.map { TLVElement(.unsigned(UInt64($0.id.rawValue))) })
        case .Descriptor.clientList:
            return .array(endpoint.clientClusters.map { TLVElement(.unsigned(UInt64($0.rawValue))) })
        case .Descriptor.partsList:
            return .array(parts.map { TLVElement(.unsigned(UInt64($0.rawValue))) })
        default:
            throw StatusIB(.unsupportedAttribute)
        }
    }

    /// The PartsList: on endpoint 0 every other endpoint; on an Aggregator every bridged device (an endpoint
    /// with the Bridged Node device type); elsewhere none.
    package var parts: [EndpointID] {
        guard let dataModel, let endpoint else { return [] }
        if endpointID == .root { return dataModel.endpoints.filter { $0 != .root } }
        guard endpoint.isAggregator else { return [] }
        return dataModel.allEndpoints.filter(\.isBridgedNode).map(\.id)
    }

    override package func changeDescription(of attribute: AttributeID, value: TLVValue) -> String? { nil }
}
