import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

extension ClusterBehaviour {
    /// Full lift travel (0 % to 100 % closed) takes this long; full tilt, a fifth of it.
    static let coveringTravelMilliseconds: UInt64 = 10_000
    /// The covering moves in steps this far apart in time.
    static let coveringStepMilliseconds: UInt64 = 100

    /// One way a covering moves: lift (the blind up and down) or tilt (its slats), each with its position
    /// attributes, its bits in OperationalStatus and its speed.
    private struct CoveringAxis {
        let current: AttributeID
        let percentage: AttributeID
        let target: AttributeID
        let shift: UInt64
        let travel: UInt64

        static let lift = CoveringAxis(
            current: .WindowCovering.currentPositionLiftPercent100ths,
            percentage: .WindowCovering.currentPositionLiftPercentage,
            target: .WindowCovering.targetPositionLiftPercent100ths, shift: 2, travel: coveringTravelMilliseconds)
        static let tilt = CoveringAxis(
            current: .WindowCovering.currentPositionTiltPercent100ths,
            percentage: .WindowCovering.currentPositionTiltPercentage,
            target: .WindowCovering.targetPositionTiltPercent100ths, shift: 4, travel: coveringTravelMilliseconds / 5)
    }

    /// Window Covering (lift and tilt, position-aware): UpOrOpen and DownOrClose set both targets, GoToLiftPercentage
    /// and GoToTiltPercentage one (Target…Percent100ths), and the blind moves there at a constant speed (full lift in
    /// 10 s, full tilt in 2 s), its current positions (Current…Percent100ths and Percentage) following step by step
    /// and OperationalStatus saying opening (1) or closing (2) for the lift, the tilt and globally, until it arrives
    /// or StopMotion takes the current positions as the targets.
    static let windowCovering = ClusterBehaviour(
        features: ["LF", "PA_LF", "TL", "PA_TL"],
        attributes: [.WindowCovering.currentPositionLiftPercentage, .WindowCovering.currentPositionTiltPercentage]
    ) { server in
        var motions: [AttributeID: DataModelTimer] = [:]
        func direction(_ server: GenericClusterServer, _ axis: CoveringAxis) -> UInt64 {
            let current = server.unsignedValue(axis.current)
            let target = server.unsignedValue(axis.target)
            return current == target ? 0 : (target > current ? 2 : 1)
        }
        func showStatus(_ server: GenericClusterServer) {
            let lift = direction(server, .lift)
            let tilt = server.features.contains("TL") ? direction(server, .tilt) : 0
            let global = lift != 0 ? lift : tilt
            server.update(.WindowCovering.operationalStatus, .unsigned(global | lift << 2 | tilt << 4))
        }
        func position(_ server: GenericClusterServer, _ axis: CoveringAxis, _ value: UInt64) {
            server.update(axis.current, .unsigned(value))
            server.update(axis.percentage, .unsigned(value / 100))
        }
        func move(_ server: GenericClusterServer, _ axis: CoveringAxis) {
            let current = server.unsignedValue(axis.current)
            let target = server.unsignedValue(axis.target)
            let step = UInt64(10_000) * coveringStepMilliseconds / axis.travel
            if current != target {
                let next = target > current ? min(target, current + step) : max(target, current - min(step, current))
                showStatus(server)
                position(server, axis, next)
                if next != target { motions[axis.current]?.start(after: coveringStepMilliseconds) }
            }
            showStatus(server)
        }
        func go(_ server: GenericClusterServer, _ axis: CoveringAxis, to target: UInt64) {
            guard server.attributes.contains(where: { $0.id == axis.target }) else { return }
            server.update(axis.target, .unsigned(target))
            if motions[axis.current] == nil {
                motions[axis.current] = server.makeTimer { [weak server] in
                    guard let server else { return }
                    move(server, axis)
                }
            }
            move(server, axis)
        }
        // A tilt blind with lift (Type 8), operational and aware of both positions.
        if server.features.contains("TL") {
            server.update(.WindowCovering.type, .unsigned(0x08))
            server.update(.WindowCovering.configStatus, .unsigned(0x01 | 0x08 | 0x10))
        }
        // A covering starts where it was (or open), at rest.
        for axis in [CoveringAxis.lift, .tilt] where server.attributes.contains(where: { $0.id == axis.current }) {
            let start = server.unsignedValue(axis.current)
            position(server, axis, start)
            server.update(axis.target, .unsigned(start))
        }
        server.handle(.WindowCovering.upOrOpen) { server, _, _ in
            go(server, .lift, to: 0)
            go(server, .tilt, to: 0)
            return nil
        }
        server.handle(.WindowCovering.downOrClose) { server, _, _ in
            go(server, .lift, to: 10_000)
            go(server, .tilt, to: 10_000)
            return nil
        }
        server.handle(.WindowCovering.stopMotion) { server, _, _ in
            for axis in [CoveringAxis.lift, .tilt] { go(server, axis, to: server.unsignedValue(axis.current)) }
            return nil
        }
        server.handle(.WindowCovering.goToLiftPercentage) { server, fields, _ throws(StatusIB) in
            let target = try fields.unsigned(0, UInt16.self)
            guard target <= 10_000 else { throw StatusIB(.constraintError) }
            go(server, .lift, to: UInt64(target))
            return nil
        }
        server.handle(.WindowCovering.goToTiltPercentage) { server, fields, _ throws(StatusIB) in
            let target = try fields.unsigned(0, UInt16.self)
            guard target <= 10_000 else { throw StatusIB(.constraintError) }
            go(server, .tilt, to: UInt64(target))
            return nil
        }
    }
}
