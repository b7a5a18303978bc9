import MatterClusters
import MatterCore
import MatterTLV

extension ClusterBehaviour {
    /// Boolean State (contact, leak, freeze, rain sensors): every change of StateValue, from the control plane
    /// or a script, is a StateChange event carrying the new value.
    static let booleanState = ClusterBehaviour(events: [.BooleanState.stateChange]) { server in
        server.onChange(.BooleanState.stateValue) { server, _, value in
            server.recordEvent(.BooleanState.stateChange, fields: .structure([TLVElement(tag: .context(0), value)]))
        }
    }
}
