import MatterClusters
package import MatterCore
package import MatterInteraction
package import MatterTLV

/// Descriptor 0x001D, generated from the composition: DeviceTypeList and ClientList from the endpoint, ServerList
/// from its servers, PartsList = every other endpoint on endpoint 0, the bridged devices on an Aggregator, the
/// endpoint's parts elsewhere (empty on leaf endpoints), and with the TAGLIST feature the endpoint's semantic tags.
/// The data model adds one to every endpoint that lacks it.
package final class DescriptorServer: ClusterServer {
    /// With the TAGLIST feature (`tagList`): the endpoint's ``Endpoint/tags`` as TagList.
    package init(tagList: Bool = false) {
        super.init(id: .descriptor, revision: ClusterSchema.descriptor.revision, featureMap: tagList ? 1 : 0)
    }

    override package var attributes: [AttributeInfo] {
        var ids: [AttributeID] = [
            .Descriptor.deviceTypeList, .Descriptor.serverList, .Descriptor.clientList, .Descriptor.partsList,
        ]
        if featureMap & 1 != 0 { ids.append(.Descriptor.tagList) }
        return Self.attributeInfos(.descriptor, ids)
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
        case .Descriptor.tagList where featureMap & 1 != 0:
            return .array(endpoint.tags.map { TLVElement($0.tlv) })
        default:
            throw StatusIB(.unsupportedAttribute)
        }
    }

    /// The PartsList: on endpoint 0 every other endpoint; on an Aggregator every bridged device (an endpoint
    /// with the Bridged Node device type); elsewhere the endpoint's parts (none on a leaf).
    package var parts: [EndpointID] {
        guard let dataModel, let endpoint else { return [] }
        if endpointID == .root { return dataModel.endpoints.filter { $0 != .root } }
        guard endpoint.isAggregator else { return endpoint.parts }
        return dataModel.allEndpoints.filter(\.isBridgedNode).map(\.id)
    }

    override package func changeDescription(of attribute: AttributeID, value: TLVValue) -> String? { nil }
}
