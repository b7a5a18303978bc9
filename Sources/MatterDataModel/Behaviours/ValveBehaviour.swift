import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

extension ClusterBehaviour {
    /// Valve Configuration and Control (a water valve, an irrigation system's valves), with levels (LVL) and the
    /// ValveStateChanged event: Open moves the valve (TargetState Open, CurrentState Transitioning) for a second,
    /// then it is open at the level asked (TargetLevel, else DefaultOpenLevel, else 100 %) and, with a duration
    /// (OpenDuration, else DefaultOpenDuration; null: until closed), RemainingDuration counts down each second and
    /// the valve closes itself at 0. Close moves it back to Closed at level 0 and clears the durations.
    static let valveConfigurationAndControl = ClusterBehaviour(
        features: ["LVL"],
        attributes: [.ValveConfigurationAndControl.defaultOpenLevel, .ValveConfigurationAndControl.levelStep],
        events: [.ValveConfigurationAndControl.valveStateChanged]
    ) { server in
        let closed: UInt64 = 0
        let open: UInt64 = 1
        let transitioning: UInt64 = 2
        var motion: DataModelTimer?
        var countdown: DataModelTimer?
        func settle(_ server: GenericClusterServer, _ state: UInt64, level: UInt64) {
            server.update(.ValveConfigurationAndControl.currentState, .unsigned(state))
            server.update(.ValveConfigurationAndControl.targetState, .null)
            server.update(.ValveConfigurationAndControl.currentLevel, .unsigned(level))
            server.update(.ValveConfigurationAndControl.targetLevel, .null)
            server.recordEvent(
                .ValveConfigurationAndControl.valveStateChanged,
                fields: .structure([
                    TLVElement(tag: .context(0), .unsigned(state)), TLVElement(tag: .context(1), .unsigned(level)),
                ]))
        }
        func move(_ server: GenericClusterServer, to state: UInt64, level: UInt64, then: @escaping () -> Void) {
            server.update(.ValveConfigurationAndControl.targetState, .unsigned(state))
            server.update(.ValveConfigurationAndControl.targetLevel, .unsigned(level))
            server.update(.ValveConfigurationAndControl.currentState, .unsigned(transitioning))
            motion?.cancel()
            let timer = server.makeTimer { [weak server] in
                guard let server else { return }
                settle(server, state, level: level)
                then()
            }
            motion = timer
            timer.start(after: 1000)
        }
        func close(_ server: GenericClusterServer) {
            countdown?.cancel()
            server.update(.ValveConfigurationAndControl.openDuration, .null)
            server.update(.ValveConfigurationAndControl.remainingDuration, .null)
            move(server, to: closed, level: 0) {}
        }
        func tick(_ server: GenericClusterServer) {
            guard case .unsigned(let remaining)? = server.value(.ValveConfigurationAndControl.remainingDuration)
            else { return }
            if remaining <= 1 {
                close(server)
                return
            }
            server.update(.ValveConfigurationAndControl.remainingDuration, .unsigned(remaining - 1))
            countdown?.start(after: 1000)
        }
        server.onStart { server in
            if server.value(.ValveConfigurationAndControl.currentState) == .null {
                server.update(.ValveConfigurationAndControl.currentState, .unsigned(closed))
                server.update(.ValveConfigurationAndControl.currentLevel, .unsigned(0))
            }
            if server.value(.ValveConfigurationAndControl.defaultOpenLevel) == .unsigned(0) {
                server.update(.ValveConfigurationAndControl.defaultOpenLevel, .unsigned(100))
            }
            if server.value(.ValveConfigurationAndControl.levelStep) == .unsigned(0) {
                server.update(.ValveConfigurationAndControl.levelStep, .unsigned(1))
            }
        }
        server.handle(.ValveConfigurationAndControl.open) { server, fields, _ throws(StatusIB) -> CommandResponse? in
            let duration: TLVValue
            if let given = fields[0] {
                if case .unsigned(let seconds) = given.value, seconds == 0 { throw StatusIB(.constraintError) }
                guard given.value == .null || given.value.isUnsigned else { throw StatusIB(.invalidCommand) }
                duration = given.value
            } else {
                duration = server.value(.ValveConfigurationAndControl.defaultOpenDuration) ?? .null
            }
            let step = max(1, server.unsignedValue(.ValveConfigurationAndControl.levelStep))
            var level = server.unsignedValue(.ValveConfigurationAndControl.defaultOpenLevel)
            if let asked = try fields.optionalUnsigned(1, UInt8.self).map(UInt64.init) {
                guard asked >= 1, asked <= 100, asked % step == 0 || asked == 100 else {
                    throw StatusIB(.constraintError)
                }
                level = asked
            }
            countdown?.cancel()
            server.update(.ValveConfigurationAndControl.openDuration, duration)
            server.update(.ValveConfigurationAndControl.remainingDuration, duration)
            move(server, to: open, level: level) { [weak server] in
                guard let server, case .unsigned = duration else { return }
                let timer = countdown ?? server.makeTimer { [weak server] in server.map(tick) }
                countdown = timer
                timer.start(after: 1000)
            }
            return nil
        }
        server.handle(.ValveConfigurationAndControl.close) { server, _, _ throws(StatusIB) -> CommandResponse? in
            close(server)
            return nil
        }
    }
}

extension TLVValue {
    /// True for an unsigned integer.
    fileprivate var isUnsigned: Bool { if case .unsigned = self { true } else { false } }
}
