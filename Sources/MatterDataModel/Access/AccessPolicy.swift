package import MatterClusters
package import MatterCore
package import MatterInteraction

/// What an access check asks about (spec 6.6.6, "Request Path" plus the privilege needed).
package struct AccessRequest: Hashable, Sendable {
    package var endpoint: EndpointID
    package var cluster: ClusterID
    /// The privilege the operation needs.
    package var privilege: Privilege
    /// The device types of the endpoint (for ACL targets naming a device type); empty for an endpoint
    /// that does not exist.
    package var deviceTypes: [DeviceTypeID]

    package init(endpoint: EndpointID, cluster: ClusterID, privilege: Privilege, deviceTypes: [DeviceTypeID] = []) {
        self.endpoint = endpoint
        self.cluster = cluster
        self.privilege = privilege
        self.deviceTypes = deviceTypes
    }
}

/// Decides access checks for a ``DeviceDataModel``. ``AccessControlList`` implements the spec's
/// rules; a device may wrap it (e.g. to add restrictions). Called on the node's queue.
package protocol AccessPolicy: AnyObject {
    /// True when `subject` may exercise `request.privilege` on the cluster instance.
    func allows(_ subject: SubjectDescriptor, _ request: AccessRequest) -> Bool
}
