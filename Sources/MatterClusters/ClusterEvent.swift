public import MatterCore

/// The fields of an event (`Clusters.BasicInformation.Events.StartUp`).
public protocol ClusterEvent: ClusterStruct {
    static var cluster: ClusterID { get }
    static var id: EventID { get }
}
