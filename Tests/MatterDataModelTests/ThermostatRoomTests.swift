import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import Testing

/// The thermostat's room (ThermostatBehaviour): it heats every second, drifts every ten seconds, and sleeps
/// at the ambient temperature until something changes.
@Suite("Thermostat room")
struct ThermostatRoomTests {
    typealias Thermostat = AttributeID.Thermostat

    @Test("drifting looks every ten seconds; at 18 °C with nothing to do it holds no timer; a mode change wakes it")
    func sleepsAtRest() throws {
        let bench = try Bench(try DevicePreset(cliName: "thermostat"))
        let server = try #require(bench.model.cluster(.thermostat, on: EndpointID(1)))
        bench.advance(1000)  // 20 °C at a 20 °C setpoint: resting, drifting down
        #expect(bench.value(1, .thermostat, Thermostat.localTemperature) == .signed(1995))
        #expect(bench.model.nextTimerDeadline == bench.clock.nowMilliseconds() + 10_000)

        // Off, and the room at the ambient 18 °C: nothing to do, no timer.
        #expect(bench.write(1, .thermostat, Thermostat.systemMode, .unsigned(0)) == .success)
        try server.setLocally(Thermostat.localTemperature, .signed(1800))
        bench.advance(1000)
        #expect(bench.value(1, .thermostat, Thermostat.thermostatRunningState) == .unsigned(0))
        #expect(bench.model.nextTimerDeadline == nil)
        bench.advance(600_000)
        #expect(bench.value(1, .thermostat, Thermostat.localTemperature) == .signed(1800))

        // Heat again: within a second it heats, 0.25 °C a second.
        #expect(bench.write(1, .thermostat, Thermostat.systemMode, .unsigned(4)) == .success)
        bench.advance(1000)
        #expect(bench.value(1, .thermostat, Thermostat.thermostatRunningState) == .unsigned(1))
        #expect(bench.value(1, .thermostat, Thermostat.localTemperature) == .signed(1825))
        bench.advance(1000)
        #expect(bench.value(1, .thermostat, Thermostat.localTemperature) == .signed(1850))
    }
}
