import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

extension ClusterBehaviour {
    /// Full travel (0 % to 100 % closed) takes this long.
    static let coveringTravelMilliseconds: UInt64 = 10_000
    /// The covering moves in steps this far apart in time.
    static let coveringStepMilliseconds: UInt64 = 100

    /// Window Covering (lift, position-aware): UpOrOpen, DownOrClose and GoToLiftPercentage set the target
    /// (TargetPositionLiftPercent100ths) and the blind moves there at a constant speed (full travel in 10 s),
    /// its current position (CurrentPositionLiftPercent100ths and Percentage) following step by step and
    /// OperationalStatus saying opening (1) or closing (2), globally and for the lift, until it arrives or
    /// StopMotion takes the current position as the target.
    static let windowCovering = ClusterBehaviour(
        features: ["LF", "PA_LF"], attributes: [.WindowCovering.currentPositionLiftPercentage]
    ) { server in
        let step = UInt64(10_000) * coveringStepMilliseconds / coveringTravelMilliseconds
        var motion: DataModelTimer?
        func status(_ direction: UInt64) -> TLVValue { .unsigned(direction | direction << 2) }
        func position(_ server: GenericClusterServer, _ value: UInt64) {
            server.update(.WindowCovering.currentPositionLiftPercent100ths, .unsigned(value))
            server.update(.WindowCovering.currentPositionLiftPercentage, .unsigned(value / 100))
        }
        func move(_ server: GenericClusterServer) {
            let current = server.unsignedValue(.WindowCovering.currentPositionLiftPercent100ths)
            let target = server.unsignedValue(.WindowCovering.targetPositionLiftPercent100ths)
            guard current != target else {
                server.update(.WindowCovering.operationalStatus, .unsigned(0))
                return
            }
            let next = target > current ? min(target, current + step) : max(target, current - min(step, current))
            server.update(.WindowCovering.operationalStatus, status(target > current ? 2 : 1))
            position(server, next)
            if next == target {
                server.update(.WindowCovering.operationalStatus, .unsigned(0))
            } else {
                motion?.start(after: coveringStepMilliseconds)
            }
        }
        func go(_ server: GenericClusterServer, to target: UInt64) {
            server.update(.WindowCovering.targetPositionLiftPercent100ths, .unsigned(target))
            if motion == nil {
                motion = server.makeTimer { [weak server] in
                    guard let server else { return }
                    move(server)
                }
            }
            move(server)
        }
        // A covering starts where it was (or open), at rest.
        let start = server.unsignedValue(.WindowCovering.currentPositionLiftPercent100ths)
        position(server, start)
        server.update(.WindowCovering.targetPositionLiftPercent100ths, .unsigned(start))
        server.handle(.WindowCovering.upOrOpen) { server, _, _ in
            go(server, to: 0)
            return nil
        }
        server.handle(.WindowCovering.downOrClose) { server, _, _ in
            go(server, to: 10_000)
            return nil
        }
        server.handle(.WindowCovering.stopMotion) { server, _, _ in
            go(server, to: server.unsignedValue(.WindowCovering.currentPositionLiftPercent100ths))
            return nil
        }
        server.handle(.WindowCovering.goToLiftPercentage) { server, fields, _ throws(StatusIB) in
            let target = try fields.unsigned(0, UInt16.self)
            guard target <= 10_000 else { throw StatusIB(.constraintError) }
            go(server, to: UInt64(target))
            return nil
        }
    }
}
