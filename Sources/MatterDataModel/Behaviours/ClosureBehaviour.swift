import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

private typealias Closure = Clusters.ClosureControl
private typealias Dimension = Clusters.ClosureDimension

extension ClusterBehaviour {
    /// How long a closure takes from fully closed to fully open (seconds).
    static let closureTravelSeconds: UInt64 = 10

    /// Closure Control (a garage door, a gate): fully closed and secure at first. MoveTo a position (fully open,
    /// fully closed; pedestrian and ventilation positions where those features are served, CONSTRAINT_ERROR
    /// otherwise) moves it (MainState Moving, OverallTargetState, CountdownTime) for the travel's time, then it
    /// stands there (OverallCurrentState, MainState Stopped) and records MovementCompleted, and SecureStateChanged
    /// when it closes or leaves closed. Stop halts it partly open. A MoveTo without a field is INVALID_COMMAND.
    static let closureControl = ClusterBehaviour(
        attributes: [.ClosureControl.countdownTime],
        events: [.ClosureControl.movementCompleted, .ClosureControl.secureStateChanged]
    ) { server in
        var motion: DataModelTimer?
        func stand(_ server: GenericClusterServer, at position: Closure.CurrentPositionEnum) {
            let secure = position == .fullyClosed
            let wasSecure: Bool? =
                if case .structure(let fields)? = server.value(.ClosureControl.overallCurrentState),
                    case .bool(let value)? = fields.first(where: { $0.tag == .context(3) })?.value
                { value } else { nil }
            if let state = try? encoded(
                Closure.OverallCurrentStateStruct(position: .value(position), secureState: .value(secure)))
            {
                server.update(.ClosureControl.overallCurrentState, state)
            }
            server.update(.ClosureControl.mainState, .unsigned(UInt64(Closure.MainStateEnum.stopped.rawValue)))
            server.update(.ClosureControl.overallTargetState, .null)
            server.update(.ClosureControl.countdownTime, .null)
            if wasSecure != secure, let fields = try? encoded(Closure.Events.SecureStateChanged(secureValue: secure)) {
                server.recordEvent(.ClosureControl.secureStateChanged, fields: fields)
            }
        }
        server.onStart { server in
            if server.value(.ClosureControl.overallCurrentState) == .null { stand(server, at: .fullyClosed) }
        }
        server.handle(.ClosureControl.moveTo) { server, fields, _ throws(StatusIB) -> CommandResponse? in
            let request = try decode(Closure.Commands.MoveTo.self, fields)
            guard let target = request.position else { throw StatusIB(.invalidCommand) }
            let reached: Closure.CurrentPositionEnum
            switch target {
            case .moveToFullyClosed: reached = .fullyClosed
            case .moveToFullyOpen: reached = .fullyOpened
            case .moveToSignaturePosition: reached = .openedAtSignature
            case .moveToPedestrianPosition:
                guard server.features.contains("PD") else { throw StatusIB(.constraintError) }
                reached = .openedForPedestrian
            case .moveToVentilationPosition:
                guard server.features.contains("VT") else { throw StatusIB(.constraintError) }
                reached = .openedForVentilation
            }
            if let state = try? encoded(Closure.OverallTargetStateStruct(position: .value(target))) {
                server.update(.ClosureControl.overallTargetState, state)
            }
            server.update(.ClosureControl.mainState, .unsigned(UInt64(Closure.MainStateEnum.moving.rawValue)))
            server.update(.ClosureControl.countdownTime, .unsigned(closureTravelSeconds))
            motion?.cancel()
            let timer = server.makeTimer { [weak server] in
                guard let server else { return }
                stand(server, at: reached)
                server.recordEvent(.ClosureControl.movementCompleted)
            }
            motion = timer
            timer.start(after: closureTravelSeconds * 1000)
            return nil
        }
        server.handle(.ClosureControl.stop) { server, _, _ throws(StatusIB) -> CommandResponse? in
            guard server.unsignedValue(.ClosureControl.mainState) == UInt64(Closure.MainStateEnum.moving.rawValue)
            else { return nil }
            motion?.cancel()
            stand(server, at: .partiallyOpened)
            return nil
        }
    }

    /// Closure Dimension (a closure panel: a window sash, a slat): closed (position 0) at first, in 1 % steps
    /// (Resolution), a step of 10 % (StepValue). SetTarget a position within 0...100 % on the resolution, or Step a
    /// number of steps either way, moves it at 10 % a second (CurrentState each second, TargetState until
    /// reached); CONSTRAINT_ERROR for a position out of range or off the resolution.
    static let closureDimension = ClusterBehaviour { server in
        let full: UInt64 = 10_000
        var target: UInt64 = 0
        var motion: DataModelTimer?
        func position(_ server: GenericClusterServer) -> UInt64 {
            guard case .structure(let fields)? = server.value(.ClosureDimension.currentState),
                case .unsigned(let value)? = fields.first(where: { $0.tag == .context(0) })?.value
            else { return 0 }
            return value
        }
        func show(_ server: GenericClusterServer, _ attribute: AttributeID, _ value: UInt64?) {
            guard let value else {
                server.update(attribute, .null)
                return
            }
            if let state = try? encoded(Dimension.DimensionStateStruct(position: .value(UInt16(value)))) {
                server.update(attribute, state)
            }
        }
        func tick(_ server: GenericClusterServer) {
            let now = position(server)
            let next =
                now < target
                ? min(target, now + full / closureTravelSeconds)
                : max(target, now - min(now, full / closureTravelSeconds))
            show(server, .ClosureDimension.currentState, next)
            if next == target {
                show(server, .ClosureDimension.targetState, nil)
            } else {
                motion?.start(after: 1000)
            }
        }
        func move(_ server: GenericClusterServer, to goal: UInt64) {
            target = goal
            show(server, .ClosureDimension.targetState, goal)
            let timer = motion ?? server.makeTimer { [weak server] in server.map(tick) }
            motion = timer
            timer.start(after: 1000)
        }
        server.onStart { server in
            if server.value(.ClosureDimension.currentState) == .null { show(server, .ClosureDimension.currentState, 0) }
            if server.unsignedValue(.ClosureDimension.resolution) == 0 {
                server.update(.ClosureDimension.resolution, .unsigned(100))
            }
            if server.unsignedValue(.ClosureDimension.stepValue) == 0 {
                server.update(.ClosureDimension.stepValue, .unsigned(1000))
            }
        }
        server.handle(.ClosureDimension.setTarget) { server, fields, _ throws(StatusIB) -> CommandResponse? in
            let request = try decode(Dimension.Commands.SetTarget.self, fields)
            guard let goal = request.position.map(UInt64.init) else { throw StatusIB(.invalidCommand) }
            let resolution = max(1, server.unsignedValue(.ClosureDimension.resolution))
            guard goal <= full, goal % resolution == 0 else { throw StatusIB(.constraintError) }
            move(server, to: goal)
            return nil
        }
        server.handle(.ClosureDimension.step) { server, fields, _ throws(StatusIB) -> CommandResponse? in
            let request = try decode(Dimension.Commands.Step.self, fields)
            guard request.numberOfSteps > 0 else { throw StatusIB(.constraintError) }
            let delta = UInt64(request.numberOfSteps) * max(1, server.unsignedValue(.ClosureDimension.stepValue))
            let from = server.value(.ClosureDimension.targetState) == .null ? position(server) : target
            move(server, to: request.direction == .increase ? min(full, from + delta) : from - min(from, delta))
            return nil
        }
    }
}
