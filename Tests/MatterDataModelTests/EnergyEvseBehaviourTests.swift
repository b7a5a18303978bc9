import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import Testing

/// The EV charger (EnergyEvseBehaviour): sessions, charging and its energy, Disable and EnableCharging, events.
@Suite("EV charger")
struct EnergyEvseBehaviourTests {
    typealias Evse = AttributeID.EnergyEvse

    /// The EnergyEvse events recorded from `number` on: (event, fields).
    static func events(_ bench: Bench, from number: UInt64) -> [(EventID, TLVValue)] {
        bench.model.eventRecords(from: number).filter { $0.path.cluster == .energyEvse }.map {
            ($0.path.event, $0.data)
        }
    }

    @Test(
        "plugged in asking for energy it charges at 32 A and 230 V; Disable stops, EnableCharging restarts; unplugged ends the session"
    )
    func session() throws {
        let bench = try Bench(try DevicePreset(cliName: "energy-evse"))
        let server = try #require(bench.model.cluster(.energyEvse, on: EndpointID(1)))
        let first = (bench.model.eventRecords(from: 0).last?.number ?? 0) + 1
        try server.setLocally(Evse.state, .unsigned(2))  // plugged in, asking for energy
        #expect(bench.value(1, .energyEvse, Evse.state) == .unsigned(3))  // charging
        #expect(bench.value(1, .energyEvse, Evse.sessionID) == .unsigned(1))
        bench.advance(10_000)
        // 32 A × 230 V = 7,360 W: 2,044.4 mWh a second, 20,444 mWh in ten.
        #expect(bench.value(1, .energyEvse, Evse.sessionEnergyCharged) == .signed(20_444))
        #expect(bench.value(1, .energyEvse, Evse.sessionDuration) == .unsigned(10))

        try bench.invoke(1, .energyEvse, .EnergyEvse.disable)
        #expect(bench.value(1, .energyEvse, Evse.state) == .unsigned(2))
        #expect(bench.value(1, .energyEvse, Evse.supplyState) == .unsigned(0))
        bench.advance(5_000)
        #expect(bench.value(1, .energyEvse, Evse.sessionEnergyCharged) == .signed(20_444))  // nothing flows
        // Above the circuit's capacity: refused, still disabled.
        #expect(
            bench.status(1, .energyEvse, .EnergyEvse.enableCharging, [0: .null, 1: .signed(6000), 2: .signed(40_000)])
                == .constraintError)
        try bench.invoke(1, .energyEvse, .EnergyEvse.enableCharging, [0: .null, 1: .signed(6000), 2: .signed(16_000)])
        #expect(bench.value(1, .energyEvse, Evse.state) == .unsigned(3))
        bench.advance(1_000)
        // 16 A × 230 V = 3,680 W: 1,022.2 mWh in a second.
        #expect(bench.value(1, .energyEvse, Evse.sessionEnergyCharged) == .signed(21_466))

        try server.setLocally(Evse.state, .unsigned(0))  // unplugged
        #expect(bench.value(1, .energyEvse, Evse.state) == .unsigned(0))
        let events = Self.events(bench, from: first)
        #expect(
            events.map(\.0) == [
                .EnergyEvse.evConnected, .EnergyEvse.energyTransferStarted, .EnergyEvse.energyTransferStopped,
                .EnergyEvse.energyTransferStarted, .EnergyEvse.energyTransferStopped, .EnergyEvse.evNotDetected,
            ])
        func field(_ index: Int, _ tag: UInt8) -> TLVValue? {
            guard case .structure(let fields) = events[index].1 else { return nil }
            return fields.first { $0.tag == .context(tag) }?.value
        }
        #expect(field(2, 2) == .unsigned(1))  // Disable: EVSEStopped
        #expect(field(2, 4) == .signed(20_444))
        #expect(field(4, 2) == .unsigned(0))  // unplugged: EVStopped
        #expect(field(5, 2) == .unsigned(16))  // the session's duration, s
        #expect(field(5, 3) == .signed(21_466))
        #expect(bench.model.nextTimerDeadline == nil)
    }
}
