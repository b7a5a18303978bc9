import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

private typealias Evse = Clusters.EnergyEvse

extension ClusterBehaviour {
    /// The EV charger's charging targets (the PREF feature): SetTargets replaces the schedules of the days it
    /// names, GetTargets answers every schedule, ClearTargets forgets them all; they survive a restart. At most
    /// seven schedules, each day in at most one, at most ten targets each, every target before midnight
    /// (CONSTRAINT_ERROR otherwise, nothing changed).
    static func chargingTargets(_ server: GenericClusterServer) {
        let key = "chargingTargets"
        func stored(_ server: GenericClusterServer) -> [Evse.ChargingTargetScheduleStruct] {
            guard case .array(let entries)? = server.loadPersisted(named: key) else { return [] }
            return entries.compactMap { try? Evse.ChargingTargetScheduleStruct(tlv: $0) }
        }
        server.handle(.EnergyEvse.setTargets) { server, fields, _ throws(StatusIB) -> CommandResponse? in
            let request = try decode(Evse.Commands.SetTargets.self, fields)
            var days: UInt8 = 0
            for schedule in request.chargingTargetSchedules {
                let mask = schedule.dayOfWeekForSequence.rawValue
                guard mask != 0, mask & days == 0, schedule.chargingTargets.count <= 10,
                    schedule.chargingTargets.allSatisfy({ $0.targetTimeMinutesPastMidnight < 1440 })
                else { throw StatusIB(.constraintError) }
                days |= mask
            }
            guard request.chargingTargetSchedules.count <= 7 else { throw StatusIB(.constraintError) }
            // The new schedules replace the days they name; the other days keep theirs.
            var schedules: [Evse.ChargingTargetScheduleStruct] = []
            for schedule in stored(server) {
                let kept = schedule.dayOfWeekForSequence.rawValue & ~days
                guard kept != 0 else { continue }
                schedules.append(
                    Evse.ChargingTargetScheduleStruct(
                        dayOfWeekForSequence: Evse.TargetDayOfWeekBitmap(rawValue: kept),
                        chargingTargets: schedule.chargingTargets))
            }
            schedules += request.chargingTargetSchedules
            server.persist(named: key, try encoded(list: schedules))
            return nil
        }
        server.handle(.EnergyEvse.getTargets) { server, _, _ throws(StatusIB) -> CommandResponse? in
            try respond(Evse.Commands.GetTargetsResponse(chargingTargetSchedules: stored(server)))
        }
        server.handle(.EnergyEvse.clearTargets) { server, _, _ throws(StatusIB) -> CommandResponse? in
            server.persist(named: key, nil)
            return nil
        }
    }
}
