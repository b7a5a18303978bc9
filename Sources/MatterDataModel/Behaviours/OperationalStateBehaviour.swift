import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

extension ClusterBehaviour {
    /// How long an appliance's cycle runs (seconds), in three phases of equal length.
    static let cycleSeconds: UInt64 = 30
    static let cyclePhases = ["preparing", "running", "finishing"]

    /// Operational State (laundry washer and dryer, dishwasher, microwave oven...): Start runs a cycle of
    /// 30 s through three phases, CountdownTime counting down each second; Pause and Resume hold and go on
    /// with it; Stop ends it. A cycle that ends (run out or stopped) records OperationCompletion with its
    /// running and paused time. A command the current state does not allow (Pause while stopped, Resume
    /// while not paused) answers CommandInvalidInState, as the specification says.
    static let operationalState = ClusterBehaviour(
        attributes: [.OperationalState.countdownTime],
        commands: [
            .OperationalState.pause, .OperationalState.stop, .OperationalState.start, .OperationalState.resume,
        ],
        events: [.OperationalState.operationCompletion]
    ) { server in
        let stopped: UInt64 = 0
        let running: UInt64 = 1
        let paused: UInt64 = 2
        server.update(
            .OperationalState.operationalStateList,
            .array((0...3).map { TLVElement(.structure([TLVElement(tag: .context(0), .unsigned($0))])) }))
        server.update(.OperationalState.phaseList, .array(cyclePhases.map { TLVElement(.utf8($0)) }))
        server.update(.OperationalState.currentPhase, .null)
        server.update(.OperationalState.countdownTime, .null)
        server.update(.OperationalState.operationalState, .unsigned(stopped))
        var left: UInt64 = 0
        var ranFor: UInt64 = 0
        var pausedFor: UInt64 = 0
        var clock: DataModelTimer?

        func state(_ server: GenericClusterServer) -> UInt64 {
            server.unsignedValue(.OperationalState.operationalState)
        }
        func answer(_ error: UInt64) -> CommandResponse {
            CommandResponse(
                command: .OperationalState.operationalCommandResponse,
                fields: .structure([
                    TLVElement(tag: .context(0), .structure([TLVElement(tag: .context(0), .unsigned(error))]))
                ]))
        }
        func finish(_ server: GenericClusterServer) {
            clock?.cancel()
            server.update(.OperationalState.operationalState, .unsigned(stopped))
            server.update(.OperationalState.currentPhase, .null)
            server.update(.OperationalState.countdownTime, .null)
            server.recordEvent(
                .OperationalState.operationCompletion,
                fields: .structure([
                    TLVElement(tag: .context(0), .unsigned(0)), TLVElement(tag: .context(1), .unsigned(ranFor)),
                    TLVElement(tag: .context(2), .unsigned(pausedFor)),
                ]))
        }
        func second(_ server: GenericClusterServer) {
            if state(server) == paused {
                pausedFor += 1
            } else {
                ranFor += 1
                left -= min(left, 1)
                guard left > 0 else {
                    finish(server)
                    return
                }
                let phase = (cycleSeconds - left) * UInt64(cyclePhases.count) / cycleSeconds
                server.update(.OperationalState.currentPhase, .unsigned(phase))
                server.update(.OperationalState.countdownTime, .unsigned(left))
            }
            clock?.start(after: 1000)
        }
        server.handle(.OperationalState.start) { server, _, _ in
            guard state(server) != running else { return answer(0) }
            guard state(server) == stopped else { return answer(3) }
            left = cycleSeconds
            ranFor = 0
            pausedFor = 0
            server.update(.OperationalState.operationalState, .unsigned(running))
            server.update(.OperationalState.currentPhase, .unsigned(0))
            server.update(.OperationalState.countdownTime, .unsigned(left))
            if clock == nil { clock = server.makeTimer { [weak server] in server.map(second) } }
            clock?.start(after: 1000)
            return answer(0)
        }
        server.handle(.OperationalState.pause) { server, _, _ in
            guard state(server) == running || state(server) == paused else { return answer(3) }
            server.update(.OperationalState.operationalState, .unsigned(paused))
            return answer(0)
        }
        server.handle(.OperationalState.resume) { server, _, _ in
            guard state(server) == paused || state(server) == running else { return answer(3) }
            server.update(.OperationalState.operationalState, .unsigned(running))
            return answer(0)
        }
        server.handle(.OperationalState.stop) { server, _, _ in
            guard state(server) != stopped else { return answer(0) }
            finish(server)
            return answer(0)
        }
    }
}
