import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

extension ClusterBehaviour {
    /// The supply voltage an EV charger is taken to charge at (V): energy = current × voltage × time.
    static let evseVolts: Int64 = 230

    /// Energy EVSE (an EV charger): charging enabled at start, up to 32 A. A vehicle is plugged in and out by
    /// setting State from outside (the control plane's `set`, a script): 1 PluggedInNoDemand, 2
    /// PluggedInDemand, 0 NotPluggedIn. Plugging in starts a session (SessionID, SessionDuration and
    /// SessionEnergyCharged from 0; EVConnected); a vehicle that asks for energy while charging is enabled
    /// charges (State PluggedInCharging, EnergyTransferStarted) at MaximumChargeCurrent and 230 V, its energy
    /// counted every second; Disable stops it (EnergyTransferStopped, EVSEStopped) and EnableCharging starts it
    /// again within the limits given; unplugging ends the session (EnergyTransferStopped, EVStopped, while
    /// charging; EVNotDetected with the session's duration and energy).
    static let energyEvse = ClusterBehaviour(
        attributes: [
            .EnergyEvse.sessionID, .EnergyEvse.sessionDuration, .EnergyEvse.sessionEnergyCharged,
        ],
        events: [
            .EnergyEvse.evConnected, .EnergyEvse.evNotDetected, .EnergyEvse.energyTransferStarted,
            .EnergyEvse.energyTransferStopped,
        ]
    ) { server in
        chargingTargets(server)
        let notPluggedIn: UInt64 = 0
        let demand: UInt64 = 2
        let charging: UInt64 = 3
        let chargingEnabled: UInt64 = 1
        server.update(.EnergyEvse.state, .unsigned(notPluggedIn))
        server.update(.EnergyEvse.supplyState, .unsigned(chargingEnabled))
        server.update(.EnergyEvse.chargingEnabledUntil, .null)
        server.update(.EnergyEvse.circuitCapacity, .signed(32_000))
        server.update(.EnergyEvse.minimumChargeCurrent, .signed(6000))
        server.update(.EnergyEvse.maximumChargeCurrent, .signed(32_000))
        server.update(.EnergyEvse.sessionID, .null)
        server.update(.EnergyEvse.sessionDuration, .null)
        server.update(.EnergyEvse.sessionEnergyCharged, .null)
        var session: UInt64 = 0
        var seconds: UInt64 = 0
        var energy: Int64 = 0  // mWh, the session's
        var remainder: Int64 = 0  // mW·s not yet a whole mWh
        var clock: DataModelTimer?
        var stopReason: UInt64 = 0  // of the next EnergyTransferStopped: EVStopped unless the charger stops it

        func signed(_ server: GenericClusterServer, _ attribute: AttributeID) -> Int64 {
            if case .signed(let value)? = server.value(attribute) { return value }
            return 0
        }
        func stopped(_ server: GenericClusterServer, state: UInt64, reason: UInt64) {
            server.recordEvent(
                .EnergyEvse.energyTransferStopped,
                fields: .structure([
                    TLVElement(tag: .context(0), .unsigned(session)), TLVElement(tag: .context(1), .unsigned(state)),
                    TLVElement(tag: .context(2), .unsigned(reason)), TLVElement(tag: .context(4), .signed(energy)),
                ]))
        }
        /// Charges when the vehicle asks and charging is enabled; stops when charging is disabled.
        func settle(_ server: GenericClusterServer) {
            let state = server.unsignedValue(.EnergyEvse.state)
            let enabled = server.unsignedValue(.EnergyEvse.supplyState) == chargingEnabled
            if state == demand, enabled {
                server.update(.EnergyEvse.state, .unsigned(charging))
                server.recordEvent(
                    .EnergyEvse.energyTransferStarted,
                    fields: .structure([
                        TLVElement(tag: .context(0), .unsigned(session)),
                        TLVElement(tag: .context(1), .unsigned(charging)),
                        TLVElement(tag: .context(2), .signed(signed(server, .EnergyEvse.maximumChargeCurrent))),
                    ]))
            } else if state == charging, !enabled {
                stopReason = 1  // EVSEStopped: the change below records it
                server.update(.EnergyEvse.state, .unsigned(demand))
            }
        }
        func second(_ server: GenericClusterServer) {
            guard server.unsignedValue(.EnergyEvse.state) != notPluggedIn else { return }
            seconds += 1
            server.update(.EnergyEvse.sessionDuration, .unsigned(seconds))
            if server.unsignedValue(.EnergyEvse.state) == charging {
                remainder += signed(server, .EnergyEvse.maximumChargeCurrent) * evseVolts  // mW for one second
                energy += remainder / 3600
                remainder %= 3600
                server.update(.EnergyEvse.sessionEnergyCharged, .signed(energy))
            }
            clock?.start(after: 1000)
        }
        server.onStart { server in
            if clock == nil { clock = server.makeTimer { [weak server] in server.map(second) } }
        }
        server.onChange(.EnergyEvse.state) { server, old, new in
            guard case .unsigned(let state) = new else { return }
            let previous: UInt64 = if case .unsigned(let value)? = old { value } else { notPluggedIn }
            if previous == notPluggedIn, state != notPluggedIn {
                session += 1
                seconds = 0
                energy = 0
                remainder = 0
                server.update(.EnergyEvse.sessionID, .unsigned(session))
                server.update(.EnergyEvse.sessionDuration, .unsigned(0))
                server.update(.EnergyEvse.sessionEnergyCharged, .signed(0))
                server.recordEvent(
                    .EnergyEvse.evConnected, fields: .structure([TLVElement(tag: .context(0), .unsigned(session))]))
                clock?.start(after: 1000)
            } else if state == notPluggedIn, previous != notPluggedIn {
                clock?.cancel()
                if previous == charging { stopped(server, state: notPluggedIn, reason: 0) }  // EVStopped
                stopReason = 0
                server.recordEvent(
                    .EnergyEvse.evNotDetected,
                    fields: .structure([
                        TLVElement(tag: .context(0), .unsigned(session)),
                        TLVElement(tag: .context(1), .unsigned(previous)),
                        TLVElement(tag: .context(2), .unsigned(seconds)), TLVElement(tag: .context(3), .signed(energy)),
                    ]))
                return
            }
            if previous == charging, state != charging {
                stopped(server, state: state, reason: stopReason)
                stopReason = 0
                return
            }
            if state == demand { settle(server) }
        }
        server.handle(.EnergyEvse.disable) { server, _, _ in
            server.update(.EnergyEvse.supplyState, .unsigned(0))
            server.update(.EnergyEvse.chargingEnabledUntil, .unsigned(0))
            settle(server)
            return nil
        }
        server.handle(.EnergyEvse.enableCharging) { server, fields, _ throws(StatusIB) in
            let until = try fields.nullableUnsigned(0, UInt32.self)
            let minimum = try fields.signed(1, Int64.self)
            let maximum = try fields.signed(2, Int64.self)
            let capacity = signed(server, .EnergyEvse.circuitCapacity)
            guard minimum >= 0, maximum >= minimum, maximum <= capacity else { throw StatusIB(.constraintError) }
            server.update(.EnergyEvse.minimumChargeCurrent, .signed(minimum))
            server.update(.EnergyEvse.maximumChargeCurrent, .signed(maximum))
            server.update(.EnergyEvse.chargingEnabledUntil, until.map { .unsigned(UInt64($0)) } ?? .null)
            server.update(.EnergyEvse.supplyState, .unsigned(chargingEnabled))
            settle(server)
            return nil
        }
    }
}
