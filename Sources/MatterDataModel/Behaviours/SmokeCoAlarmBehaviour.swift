import MatterClusters
import MatterCore
import MatterTLV

extension ClusterBehaviour {
    /// Smoke/CO alarm: SelfTestRequest runs a self-test of two seconds (TestInProgress, ExpressedState
    /// Testing), then SelfTestComplete and ExpressedState back to Normal.
    static let smokeCoAlarm = ClusterBehaviour(commands: [.SmokeCoAlarm.selfTestRequest]) { server in
        var timer: DataModelTimer?
        server.handle(.SmokeCoAlarm.selfTestRequest) { [weak server] _, _, _ in
            guard let server else { return nil }
            server.update(.SmokeCoAlarm.testInProgress, .bool(true))
            server.update(.SmokeCoAlarm.expressedState, .unsigned(0x04))
            let ending =
                timer
                ?? server.makeTimer { [weak server] in
                    guard let server else { return }
                    server.update(.SmokeCoAlarm.testInProgress, .bool(false))
                    server.update(.SmokeCoAlarm.expressedState, .unsigned(0x00))
                    server.recordEvent(.SmokeCoAlarm.selfTestComplete)
                }
            timer = ending
            ending.start(after: 2000)
            return nil
        }
    }
}
