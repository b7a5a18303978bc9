package import MatterCore
package import MatterTLV

extension DataModel {
    /// The attributes of a cluster as the engine serves them: the data model's, and the global lists the
    /// engine adds (AttributeList, AcceptedCommandList, GeneratedCommandList).
    package func servedAttributes(endpoint: EndpointID, cluster: ClusterID) -> [AttributeID] {
        PathProcessor(dataModel: self).attributes(endpoint, cluster).map(\.id)
    }

    /// One attribute's value as a read of it answers (the global lists included), for a local reader such as
    /// the control plane; access and existence are the caller's.
    package func readServed(_ path: ConcreteAttributePath, context: InteractionContext) throws(StatusIB) -> TLVValue {
        try PathProcessor(dataModel: self).readValue(path, context: context)
    }
}
