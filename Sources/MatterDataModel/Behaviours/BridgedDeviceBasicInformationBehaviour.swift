import MatterClusters
import MatterCore
import MatterTLV

extension ClusterBehaviour {
    /// Bridged Device Basic Information: a bridged device's name and identity, and whether the bridge reaches
    /// it. Every change of Reachable (the control plane's `reachable`, a `set`) is a ReachableChanged event with
    /// the new value.
    static let bridgedDeviceBasicInformation = ClusterBehaviour(
        attributes: [
            .BridgedDeviceBasicInformation.nodeLabel, .BridgedDeviceBasicInformation.uniqueID,
            .BridgedDeviceBasicInformation.productName, .BridgedDeviceBasicInformation.vendorName,
            .BridgedDeviceBasicInformation.serialNumber,
        ],
        events: [.BridgedDeviceBasicInformation.reachableChanged]
    ) { server in
        server.onChange(.BridgedDeviceBasicInformation.reachable) { server, _, value in
            server.recordEvent(
                .BridgedDeviceBasicInformation.reachableChanged,
                fields: .structure([TLVElement(tag: .context(0), value)]))
        }
    }
}
