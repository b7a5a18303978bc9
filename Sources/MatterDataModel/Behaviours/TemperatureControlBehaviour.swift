import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

extension ClusterBehaviour {
    /// Temperature Control (a refrigerator's or an oven's cabinet, a cook surface): with TemperatureNumber, a
    /// setpoint within limits that suit the appliance (a cooler 1...8 °C at 4 °C, a heater 50...250 °C at 180 °C,
    /// in steps of 0.5 °C where STEP is on); with TemperatureLevel, the levels Low, Medium and High at Medium.
    /// SetTemperature takes a setpoint within the limits (on a step) or a level the device has, else
    /// CONSTRAINT_ERROR, and INVALID_COMMAND without the field its feature needs. Whether the endpoint heats is
    /// read from its device types and its whole's (an oven, a cooktop, a cook surface, a microwave).
    static let temperatureControl = ClusterBehaviour { server in
        let levels = ["Low", "Medium", "High"]
        server.onStart { server in
            let heats = Self.heats(server)
            if server.features.contains("TN"),
                server.value(.TemperatureControl.minTemperature) == server.value(.TemperatureControl.maxTemperature)
            {
                server.update(.TemperatureControl.minTemperature, .signed(heats ? 5000 : 100))
                server.update(.TemperatureControl.maxTemperature, .signed(heats ? 25000 : 800))
                server.update(.TemperatureControl.temperatureSetpoint, .signed(heats ? 18000 : 400))
                server.update(.TemperatureControl.step, .signed(50))
            }
            if server.features.contains("TL"),
                case .array(let known)? = server.value(.TemperatureControl.supportedTemperatureLevels), known.isEmpty
            {
                server.update(
                    .TemperatureControl.supportedTemperatureLevels, .array(levels.map { TLVElement(.utf8($0)) }))
                server.update(.TemperatureControl.selectedTemperatureLevel, .unsigned(1))
            }
        }
        server.handle(.TemperatureControl.setTemperature) { server, fields, _ throws(StatusIB) -> CommandResponse? in
            if server.features.contains("TN") {
                guard let target = try fields.optionalSigned(0, Int16.self) else { throw StatusIB(.invalidCommand) }
                guard case .signed(let low)? = server.value(.TemperatureControl.minTemperature),
                    case .signed(let high)? = server.value(.TemperatureControl.maxTemperature),
                    Int64(target) >= low, Int64(target) <= high
                else { throw StatusIB(.constraintError) }
                if server.features.contains("STEP"), case .signed(let step)? = server.value(.TemperatureControl.step),
                    step > 0, (Int64(target) - low) % step != 0
                {
                    throw StatusIB(.constraintError)
                }
                server.update(.TemperatureControl.temperatureSetpoint, .signed(Int64(target)))
            } else {
                guard let level = try fields.optionalUnsigned(1, UInt8.self) else { throw StatusIB(.invalidCommand) }
                guard case .array(let known)? = server.value(.TemperatureControl.supportedTemperatureLevels),
                    Int(level) < known.count
                else { throw StatusIB(.constraintError) }
                server.update(.TemperatureControl.selectedTemperatureLevel, .unsigned(UInt64(level)))
            }
            return nil
        }
    }

    /// True when the server's endpoint, or the device it is part of, heats (an oven, a cooktop...).
    static func heats(_ server: GenericClusterServer) -> Bool {
        let heaters: Set<UInt32> = [
            DeviceTypeSchema.oven.id, DeviceTypeSchema.cooktop.id, DeviceTypeSchema.cookSurface.id,
            DeviceTypeSchema.microwaveOven.id,
        ]
        guard let endpoint = server.endpoint else { return false }
        let wholes = server.dataModel?.allEndpoints.filter { $0.parts.contains(endpoint.id) } ?? []
        return ([endpoint] + wholes).contains { candidate in
            candidate.deviceTypes.contains { heaters.contains($0.id.rawValue) }
        }
    }
}
