import MatterClusters
import MatterCore
import MatterTLV

extension ClusterBehaviour {
    /// Fan Control: a FanMode written sets the speed it stands for (Off 0 %, Low 33 %, Medium 66 %, High and
    /// On 100 %, Auto 50 %); a PercentSetting written is where the fan runs (PercentCurrent), 0 % being Off.
    static let fanControl = ClusterBehaviour { server in
        server.onChange(.FanControl.fanMode) { server, _, mode in
            guard case .unsigned(let raw) = mode else { return }
            let percent: UInt64? =
                switch raw {
                case 0: 0
                case 1: 33
                case 2: 66
                case 3, 4: 100
                case 5: 50
                default: nil
                }
            guard let percent else { return }
            server.update(.FanControl.percentSetting, .unsigned(percent))
            server.update(.FanControl.percentCurrent, .unsigned(percent))
        }
        server.onChange(.FanControl.percentSetting) { server, _, setting in
            guard case .unsigned(let percent) = setting else { return }
            server.update(.FanControl.percentCurrent, .unsigned(percent))
            if percent == 0 { server.update(.FanControl.fanMode, .unsigned(0)) }
        }
    }
}
