import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

private typealias DEM = Clusters.DeviceEnergyManagement

extension ClusterBehaviour {
    /// Device Energy Management with Power Adjustment (a battery storage, a heat pump, an EV charger): online, able
    /// to run between -5 kW and 5 kW (1 kW to 5 kW for its adjustments, 1 min to 1 h). PowerAdjustRequest within
    /// those bounds runs the adjustment (ESAState PowerAdjustActive, the capability's cause the request's,
    /// PowerAdjustStart) for its duration, then ends it by itself (PowerAdjustEnd, NormalCompletion);
    /// CancelPowerAdjustRequest ends it at once (Cancelled), INVALID_IN_STATE when none runs. Outside the bounds:
    /// CONSTRAINT_ERROR.
    static let deviceEnergyManagement = ClusterBehaviour { server in
        let bounds = DEM.PowerAdjustStruct(minPower: 1_000_000, maxPower: 5_000_000, minDuration: 60, maxDuration: 3600)
        var ending: DataModelTimer?
        var started: UInt64 = 0
        var power: Int64 = 0
        func capability(_ cause: DEM.PowerAdjustReasonEnum) -> TLVValue? {
            try? encoded(DEM.PowerAdjustCapabilityStruct(powerAdjustCapability: .value([bounds]), cause: cause))
        }
        func end(_ server: GenericClusterServer, _ cause: DEM.CauseEnum) {
            ending?.cancel()
            let seconds = UInt32(min(UInt64(UInt32.max), (server.now &- started) / 1000))
            server.update(.DeviceEnergyManagement.esaState, .unsigned(UInt64(DEM.ESAStateEnum.online.rawValue)))
            if let value = capability(.noAdjustment) {
                server.update(.DeviceEnergyManagement.powerAdjustmentCapability, value)
            }
            // Energy in mWh: power in mW over the seconds it ran.
            let energy = power.multipliedReportingOverflow(by: Int64(seconds)).partialValue / 3600
            if let fields = try? encoded(DEM.Events.PowerAdjustEnd(cause: cause, duration: seconds, energyUse: energy))
            {
                server.recordEvent(.DeviceEnergyManagement.powerAdjustEnd, fields: fields)
            }
        }
        server.update(.DeviceEnergyManagement.esaState, .unsigned(UInt64(DEM.ESAStateEnum.online.rawValue)))
        server.update(.DeviceEnergyManagement.absMinPower, .signed(-5_000_000))
        server.update(.DeviceEnergyManagement.absMaxPower, .signed(5_000_000))
        if let value = capability(.noAdjustment) {
            server.update(.DeviceEnergyManagement.powerAdjustmentCapability, value)
        }
        server.handle(.DeviceEnergyManagement.powerAdjustRequest) {
            (server, fields, _) throws(StatusIB) -> CommandResponse? in
            let request = try decode(DEM.Commands.PowerAdjustRequest.self, fields)
            guard request.power >= bounds.minPower, request.power <= bounds.maxPower,
                request.duration >= bounds.minDuration, request.duration <= bounds.maxDuration
            else { throw StatusIB(.constraintError) }
            let cause: DEM.PowerAdjustReasonEnum =
                request.cause == .gridOptimization ? .gridOptimizationAdjustment : .localOptimizationAdjustment
            started = server.now
            power = request.power
            server.update(
                .DeviceEnergyManagement.esaState, .unsigned(UInt64(DEM.ESAStateEnum.powerAdjustActive.rawValue)))
            if let value = capability(cause) { server.update(.DeviceEnergyManagement.powerAdjustmentCapability, value) }
            server.recordEvent(.DeviceEnergyManagement.powerAdjustStart)
            let timer = ending ?? server.makeTimer { [weak server] in server.map { end($0, .normalCompletion) } }
            ending = timer
            timer.start(after: UInt64(request.duration) * 1000)
            return nil
        }
        server.handle(.DeviceEnergyManagement.cancelPowerAdjustRequest) {
            (server, _, _) throws(StatusIB) -> CommandResponse? in
            guard
                server.unsignedValue(.DeviceEnergyManagement.esaState)
                    == UInt64(DEM.ESAStateEnum.powerAdjustActive.rawValue)
            else { throw StatusIB(.invalidInState) }
            end(server, .cancelled)
            return nil
        }
    }
}
