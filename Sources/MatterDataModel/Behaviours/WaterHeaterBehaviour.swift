import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

private typealias Heater = Clusters.WaterHeaterManagement

extension ClusterBehaviour {
    /// Water Heater Management: an immersion element (HeaterTypes), heating on demand. Boost heats (BoostState
    /// Active, HeatDemand the element) for the Duration asked, then ends by itself; CancelBoost ends it at once;
    /// each start and end is recorded (BoostStarted with the boost's information, BoostEnded). A Boost of no
    /// duration is CONSTRAINT_ERROR; a CancelBoost with no boost running does nothing.
    static let waterHeaterManagement = ClusterBehaviour { server in
        let immersion: UInt64 = 0x01
        var ending: DataModelTimer?
        func end(_ server: GenericClusterServer) {
            ending?.cancel()
            guard server.unsignedValue(.WaterHeaterManagement.boostState) == 1 else { return }
            server.update(.WaterHeaterManagement.boostState, .unsigned(0))
            server.update(.WaterHeaterManagement.heatDemand, .unsigned(0))
            server.recordEvent(.WaterHeaterManagement.boostEnded)
        }
        server.update(.WaterHeaterManagement.heaterTypes, .unsigned(immersion))
        server.handle(.WaterHeaterManagement.boost) { server, fields, _ throws(StatusIB) -> CommandResponse? in
            let request = try decode(Heater.Commands.Boost.self, fields)
            guard request.boostInfo.duration > 0 else { throw StatusIB(.constraintError) }
            if let percentage = request.boostInfo.targetPercentage, percentage > 100 {
                throw StatusIB(.constraintError)
            }
            server.update(.WaterHeaterManagement.boostState, .unsigned(1))
            server.update(.WaterHeaterManagement.heatDemand, .unsigned(immersion))
            if let fields = try? encoded(Heater.Events.BoostStarted(boostInfo: request.boostInfo)) {
                server.recordEvent(.WaterHeaterManagement.boostStarted, fields: fields)
            }
            let timer = ending ?? server.makeTimer { [weak server] in server.map(end) }
            ending = timer
            timer.start(after: UInt64(request.boostInfo.duration) * 1000)
            return nil
        }
        server.handle(.WaterHeaterManagement.cancelBoost) { server, _, _ throws(StatusIB) -> CommandResponse? in
            end(server)
            return nil
        }
    }
}
