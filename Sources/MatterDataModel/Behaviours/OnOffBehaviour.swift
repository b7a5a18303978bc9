import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

extension ClusterBehaviour {
    /// On/Off where the device type asks for features the lighting server does not have (an appliance's
    /// dead-front behaviour): Off, On and Toggle set OnOff.
    static let onOff = ClusterBehaviour { server in
        server.handle(.OnOff.off) { server, _, _ in
            server.update(.OnOff.onOff, .bool(false))
            return nil
        }
        server.handle(.OnOff.on) { server, _, _ in
            server.update(.OnOff.onOff, .bool(true))
            return nil
        }
        server.handle(.OnOff.toggle) { server, _, _ in
            server.update(.OnOff.onOff, .bool(server.value(.OnOff.onOff) != .bool(true)))
            return nil
        }
    }
}
