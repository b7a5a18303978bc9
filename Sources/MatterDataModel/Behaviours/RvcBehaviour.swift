import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

extension ClusterBehaviour {
    /// The robot's run modes: (mode, label, mode tag: Idle 0x4000, Cleaning 0x4001, Mapping 0x4002).
    static let rvcModes: [(mode: UInt64, label: String, tag: UInt64)] = [
        (0, "Idle", 0x4000), (1, "Cleaning", 0x4001), (2, "Mapping", 0x4002),
    ]
    /// How long a cleaning or mapping run lasts, and each leg of the way home (seconds).
    static let rvcRunSeconds: UInt64 = 60
    static let rvcDockingSeconds: UInt64 = 5

    /// RVC Run Mode: Idle, Cleaning and Mapping; ChangeToMode answers Success, or UnsupportedMode for a mode
    /// the robot does not have. The robot's operational state follows the mode (``rvcOperationalState``).
    static let rvcRunMode = ClusterBehaviour { server in
        server.update(.RvcRunMode.supportedModes, modeOptions(rvcModes))
        server.update(.RvcRunMode.currentMode, .unsigned(0))
        server.handle(.RvcRunMode.changeToMode) { server, fields, _ throws(StatusIB) in
            let mode = try fields.unsigned(0, UInt8.self)
            guard rvcModes.contains(where: { $0.mode == UInt64(mode) }) else {
                return CommandResponse(
                    command: .RvcRunMode.changeToModeResponse,
                    fields: .structure([
                        TLVElement(tag: .context(0), .unsigned(1)),
                        TLVElement(tag: .context(1), .utf8("no mode \(mode): 0 Idle, 1 Cleaning, 2 Mapping")),
                    ]))
            }
            server.update(.RvcRunMode.currentMode, .unsigned(UInt64(mode)))
            return CommandResponse(
                command: .RvcRunMode.changeToModeResponse,
                fields: .structure([TLVElement(tag: .context(0), .unsigned(0))]))
        }
    }

    /// RVC Operational State: docked at start. A run mode of Cleaning or Mapping starts a run of 60 s
    /// (Running, CountdownTime each second); at its end the robot records OperationCompletion, goes home
    /// (SeekingCharger 5 s, Charging 5 s, Docked) and its run mode returns to Idle. Pause holds a run or the way
    /// home, Resume goes on with it, GoHome ends a run early; a command the state does not allow answers
    /// CommandInvalidInState. Idle while running sends it home.
    static let rvcOperationalState = ClusterBehaviour(
        attributes: [.RvcOperationalState.countdownTime],
        commands: [.RvcOperationalState.pause, .RvcOperationalState.resume, .RvcOperationalState.goHome],
        events: [.RvcOperationalState.operationCompletion]
    ) { server in
        let stopped: UInt64 = 0
        let running: UInt64 = 1
        let paused: UInt64 = 2
        let seekingCharger: UInt64 = 0x40
        let charging: UInt64 = 0x41
        let docked: UInt64 = 0x42
        server.update(
            .RvcOperationalState.operationalStateList,
            .array(
                [stopped, running, paused, 3, seekingCharger, charging, docked].map {
                    TLVElement(.structure([TLVElement(tag: .context(0), .unsigned($0))]))
                }))
        server.update(.RvcOperationalState.operationalState, .unsigned(docked))
        server.update(.RvcOperationalState.countdownTime, .null)
        var left: UInt64 = 0
        var ranFor: UInt64 = 0
        var pausedFor: UInt64 = 0
        var resumeTo = running
        var clock: DataModelTimer?

        func state(_ server: GenericClusterServer) -> UInt64 {
            server.unsignedValue(.RvcOperationalState.operationalState)
        }
        func runMode(_ server: GenericClusterServer) -> GenericClusterServer? {
            server.endpoint?.cluster(.rvcRunMode) as? GenericClusterServer
        }
        func answer(_ error: UInt64) -> CommandResponse {
            CommandResponse(
                command: .RvcOperationalState.operationalCommandResponse,
                fields: .structure([
                    TLVElement(tag: .context(0), .structure([TLVElement(tag: .context(0), .unsigned(error))]))
                ]))
        }
        func set(_ server: GenericClusterServer, _ state: UInt64, countdown: UInt64?) {
            left = countdown ?? 0
            server.update(.RvcOperationalState.operationalState, .unsigned(state))
            server.update(.RvcOperationalState.countdownTime, countdown.map { .unsigned($0) } ?? .null)
            if countdown == nil { clock?.cancel() } else { clock?.start(after: 1000) }
        }
        func goHome(_ server: GenericClusterServer) {
            set(server, seekingCharger, countdown: rvcDockingSeconds)
            resumeTo = seekingCharger
            if runMode(server)?.unsignedValue(.RvcRunMode.currentMode) != 0 {
                runMode(server)?.update(.RvcRunMode.currentMode, .unsigned(0))
            }
        }
        func second(_ server: GenericClusterServer) {
            let now = state(server)
            if now == paused {
                pausedFor += 1
                clock?.start(after: 1000)
                return
            }
            if now == running { ranFor += 1 }
            left -= min(left, 1)
            guard left == 0 else {
                server.update(.RvcOperationalState.countdownTime, .unsigned(left))
                clock?.start(after: 1000)
                return
            }
            switch now {
            case running:
                server.recordEvent(
                    .RvcOperationalState.operationCompletion,
                    fields: .structure([
                        TLVElement(tag: .context(0), .unsigned(0)), TLVElement(tag: .context(1), .unsigned(ranFor)),
                        TLVElement(tag: .context(2), .unsigned(pausedFor)),
                    ]))
                goHome(server)
            case seekingCharger: set(server, charging, countdown: rvcDockingSeconds)
            default: set(server, docked, countdown: nil)
            }
        }
        server.onStart { server in
            if clock == nil { clock = server.makeTimer { [weak server] in server.map(second) } }
            runMode(server)?.onChange(.RvcRunMode.currentMode) { [weak server] _, _, value in
                guard let server, case .unsigned(let mode) = value else { return }
                let now = state(server)
                if mode != 0, now != running, now != paused {
                    ranFor = 0
                    pausedFor = 0
                    resumeTo = running
                    set(server, running, countdown: rvcRunSeconds)
                } else if mode == 0, now == running || (now == paused && resumeTo == running) {
                    goHome(server)
                }
            }
        }
        server.handle(.RvcOperationalState.pause) { server, _, _ in
            let now = state(server)
            guard now == running || now == seekingCharger || now == paused else { return answer(3) }
            if now != paused { resumeTo = now }
            server.update(.RvcOperationalState.operationalState, .unsigned(paused))
            return answer(0)
        }
        server.handle(.RvcOperationalState.resume) { server, _, _ in
            let now = state(server)
            guard now == paused || now == running || now == seekingCharger else { return answer(3) }
            server.update(.RvcOperationalState.operationalState, .unsigned(now == paused ? resumeTo : now))
            return answer(0)
        }
        server.handle(.RvcOperationalState.goHome) { server, _, _ in
            let now = state(server)
            guard now != docked, now != charging, now != seekingCharger else { return answer(0) }  // home already
            goHome(server)
            return answer(0)
        }
    }
}
