public import MatterCore

/// The fields of a command, request or response (`Clusters.OnOff.Commands.OffWithEffect`).
public protocol ClusterCommand: ClusterStruct {
    /// The response command, or ``DefaultSuccess`` when the command is answered with a status.
    associatedtype Response: ClusterStruct
    static var cluster: ClusterID { get }
    static var id: CommandID { get }
}
