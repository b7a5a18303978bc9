public import MatterClusters
public import MatterCore
public import MatterInteraction

/// What an access check asks about (spec 6.6.6, "Request Path" plus the privilege needed).
public struct AccessRequest: Hashable, Sendable {
    public var endpoint: EndpointID
    public var cluster: ClusterID
    /// The privilege the operation needs.
    public var privilege: Privilege
    /// The device types of the endpoint (for ACL targets naming a device type); empty for an endpoint
    /// that does not exist.
    public var deviceTypes: [DeviceTypeID]

    public init(endpoint: EndpointID, cluster: ClusterID, privilege: Privilege, deviceTypes: [DeviceTypeID] = []) {
        self.endpoint = endpoint
        self.cluster = cluster
        self.privilege = privilege
        self.deviceTypes = deviceTypes
    }
}

/// Decides access checks for a ``DeviceDataModel``. ``AccessControlList`` implements the spec's
/// rules; a device may wrap it (e.g. to add restrictions). Called on the node's queue.
public protocol AccessPolicy: AnyObject {
    /// True when `subject` may exercise `request.privilege` on the cluster instance.
    func allows(_ subject: SubjectDescriptor, _ request: AccessRequest) -> Bool
}
