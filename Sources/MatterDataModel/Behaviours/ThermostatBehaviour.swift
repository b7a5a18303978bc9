import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

extension ClusterBehaviour {
    /// The room's temperature when nothing heats or cools it (0.01 °C).
    static let roomAmbient: Int64 = 1800
    /// How far the room warms or cools per second while the thermostat runs, and drifts toward the ambient
    /// temperature per ten seconds while it rests (0.01 °C).
    static let roomRate: Int64 = 25
    static let roomDrift: Int64 = 5
    /// How far below the heating setpoint (above the cooling one) the room falls before the thermostat
    /// starts again (0.01 °C).
    static let roomHysteresis: Int64 = 50

    /// Thermostat (heating and cooling): a room that follows it. Every second, in Heat (or Auto) mode below
    /// its heating setpoint the thermostat heats (ThermostatRunningState Heat, LocalTemperature +0.25 °C) until
    /// the setpoint is reached; in Cool mode above the cooling setpoint it cools likewise; otherwise the room
    /// drifts toward 18 °C by 0.05 °C every ten seconds (the room is looked at every ten seconds then, not
    /// every second), and the thermostat starts again 0.5 °C past its setpoint. A room at 18 °C that nothing
    /// heats or cools holds no timer until a setpoint, the mode or the temperature changes. SetpointRaiseLower
    /// moves the setpoints within their limits. A twin's room (a recorded thermostat) rests at the temperature
    /// recorded, not at 18 °C: it changes when the thermostat heats or cools it.
    static let thermostat = ClusterBehaviour(
        features: ["HEAT", "COOL"], attributes: [.Thermostat.thermostatRunningState]
    ) { server in
        server.update(.Thermostat.controlSequenceOfOperation, .unsigned(4))  // cooling and heating
        server.update(.Thermostat.systemMode, .unsigned(4))  // heat
        if server.value(.Thermostat.localTemperature) == TLVValue.null {
            server.update(.Thermostat.localTemperature, .signed(2000))
        }
        var running: UInt64 = 0
        var room: DataModelTimer?
        func signed(_ server: GenericClusterServer, _ attribute: AttributeID, _ fallback: Int64) -> Int64 {
            if case .signed(let value)? = server.value(attribute) { return value }
            if case .unsigned(let value)? = server.value(attribute) { return Int64(value) }
            return fallback
        }
        let ambient =
            server.isRecorded
            ? signed(server, .Thermostat.localTemperature, ClusterBehaviour.roomAmbient) : ClusterBehaviour.roomAmbient
        func tick(_ server: GenericClusterServer) {
            let mode = server.unsignedValue(.Thermostat.systemMode)
            let local = signed(server, .Thermostat.localTemperature, 2000)
            let heat = signed(server, .Thermostat.occupiedHeatingSetpoint, 2000)
            let cool = signed(server, .Thermostat.occupiedCoolingSetpoint, 2600)
            let heats = mode == 4 || mode == 1
            let cools = mode == 3 || mode == 1
            if heats, local < heat, running == 1 || local <= heat - roomHysteresis {
                running = 1
            } else if cools, local > cool, running == 2 || local >= cool + roomHysteresis {
                running = 2
            } else {
                running = 0
            }
            var next = local
            switch running {
            case 1: next = min(heat, local + roomRate)
            case 2: next = max(cool, local - roomRate)
            default:
                if local != ambient {
                    next =
                        local > ambient ? max(ambient, local - roomDrift) : min(ambient, local + roomDrift)
                }
            }
            server.update(.Thermostat.thermostatRunningState, .unsigned(running))
            if next != local { server.update(.Thermostat.localTemperature, .signed(next)) }
            // Heating or cooling: every second; drifting: every ten; at the ambient temperature: asleep (a
            // change below wakes it), unless a setpoint calls for heat or cold at once.
            if running != 0 {
                room?.start(after: 1000)
            } else if next != ambient || (heats && next <= heat - roomHysteresis)
                || (cools && next >= cool + roomHysteresis)
            {
                room?.start(after: 10_000)
            } else {
                room?.cancel()
            }
        }
        server.onStart { server in
            if room == nil { room = server.makeTimer { [weak server] in server.map(tick) } }
            room?.start(after: 1000)
        }
        // A change of the mode, a setpoint or the temperature (from a controller, the control plane, a script)
        // is looked at within a second, however long the rest; the room's own changes come from the tick,
        // which arms its next wait after them.
        for attribute in [
            AttributeID.Thermostat.systemMode, .Thermostat.occupiedHeatingSetpoint, .Thermostat.occupiedCoolingSetpoint,
            .Thermostat.localTemperature,
        ] {
            server.onChange(attribute) { _, _, _ in room?.start(after: 1000) }
        }
        // A setpoint written outside its limits is refused (the specification's constraint on the setpoints).
        for (setpoint, low, high, lowDefault, highDefault) in [
            (
                AttributeID.Thermostat.occupiedHeatingSetpoint, AttributeID.Thermostat.minHeatSetpointLimit,
                AttributeID.Thermostat.maxHeatSetpointLimit, Int64(700), Int64(3000)
            ),
            (
                .Thermostat.occupiedCoolingSetpoint, .Thermostat.minCoolSetpointLimit, .Thermostat.maxCoolSetpointLimit,
                1600, 3200
            ),
        ] {
            server.checkWrites(setpoint) { server, value throws(StatusIB) in
                let written: Int64
                switch value {
                case .signed(let number): written = number
                case .unsigned(let number) where number <= UInt64(Int64.max): written = Int64(number)
                default: throw StatusIB(.invalidDataType)
                }
                guard signed(server, low, lowDefault)...signed(server, high, highDefault) ~= written else {
                    throw StatusIB(.constraintError)
                }
            }
        }
        server.handle(.Thermostat.setpointRaiseLower) { server, fields, _ throws(StatusIB) in
            let mode = try fields.unsigned(0, UInt8.self)
            let amount = Int64(try fields.signed(1, Int8.self)) * 10
            guard mode <= 2 else { throw StatusIB(.constraintError) }
            if mode == 0 || mode == 2 {
                let low = signed(server, .Thermostat.minHeatSetpointLimit, 700)
                let high = signed(server, .Thermostat.maxHeatSetpointLimit, 3000)
                let value = signed(server, .Thermostat.occupiedHeatingSetpoint, 2000) + amount
                server.update(.Thermostat.occupiedHeatingSetpoint, .signed(min(high, max(low, value))))
            }
            if mode == 1 || mode == 2 {
                let low = signed(server, .Thermostat.minCoolSetpointLimit, 1600)
                let high = signed(server, .Thermostat.maxCoolSetpointLimit, 3200)
                let value = signed(server, .Thermostat.occupiedCoolingSetpoint, 2600) + amount
                server.update(.Thermostat.occupiedCoolingSetpoint, .signed(min(high, max(low, value))))
            }
            return nil
        }
    }
}
