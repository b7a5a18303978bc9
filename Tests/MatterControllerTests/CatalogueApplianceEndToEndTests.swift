import MatterClusters
import MatterController
import MatterCore
import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterStorage
import MatterTLV
import MatterTestSupport
import Synchronization
import Testing

/// Catalogue appliances end to end: a thermostat heating its room, a robot vacuum's run, a washer's cycle (the
/// suite's helpers are in CatalogueEndToEndTests.swift).
extension CatalogueEndToEndTests {
    @Test("a thermostat heats its room to a raised setpoint, running while it heats, then rests")
    func thermostatHeatsTheRoom() async throws {
        let node = NodeID(27)
        let (_, device, controller) = try await commissioned("thermostat", node: node)
        let local = ConcreteAttributePath(
            endpoint: EndpointID(1), cluster: .thermostat, attribute: .Thermostat.localTemperature)
        let running = ConcreteAttributePath(
            endpoint: EndpointID(1), cluster: .thermostat, attribute: .Thermostat.thermostatRunningState)
        let reported = try await ReportedIntegers.subscribe(controller, node, [local, running])
        let subscription = try reported.subscription
        let start = try #require(
            subscription.priming.report(for: local)?.value.flatMap { value -> Int64? in
                if case .signed(let number) = value { return number }
                return nil
            })
        #expect(await device.deviceValue(1, .thermostat, .Thermostat.systemMode) == .unsigned(4))
        // Heat, +1 °C (amount in 0.1 °C).
        try await controller.invoke(
            node, endpoint: EndpointID(1), cluster: .thermostat, command: .Thermostat.setpointRaiseLower,
            fields: [TLVElement(tag: .context(0), .unsigned(0)), TLVElement(tag: .context(1), .signed(10))])
        guard
            case .signed(let setpoint)? = await device.deviceValue(1, .thermostat, .Thermostat.occupiedHeatingSetpoint)
        else {
            Issue.record("no OccupiedHeatingSetpoint")
            return
        }
        #expect(setpoint == 2100)
        #expect(start < setpoint)
        // Heating (1), then at rest (0) once the setpoint is reached; at rest the room may already drift back.
        func rested() -> Bool {
            let states = reported[running]
            return states.firstIndex(of: 1).map { states[$0...].contains(0) } ?? false
        }
        var waited = 0
        while !(reported[local].contains(setpoint) && rested()), waited < 1200 {
            try await Task.sleep(for: .milliseconds(50))
            waited += 1
        }
        let seen = reported[local]
        let reached = try #require(seen.firstIndex(of: setpoint), "never reached \(setpoint): \(seen)")
        let warming = Array(seen[...reached])
        #expect(warming == warming.sorted(), "the room only warms while heated: \(seen)")
        #expect(rested(), "\(reported[running])")
        await controller.cancel(subscription)
        await controller.stop()
        await device.stop()
    }

    @Test(
        "a robotic vacuum (time scale 10): Cleaning from our controller runs, records OperationCompletion, goes home and docks; the subscription sees the states in order"
    )
    func vacuumRun() async throws {
        let node = NodeID(29)
        let (_, device, controller) = try await commissioned("robotic-vacuum-cleaner", node: node, timeScale: 10)
        let path = ConcreteAttributePath(
            endpoint: EndpointID(1), cluster: .rvcOperationalState, attribute: .RvcOperationalState.operationalState)
        let reported = try await ReportedIntegers.subscribe(controller, node, [path])
        let result = try await controller.invoke(
            node, endpoint: EndpointID(1), cluster: .rvcRunMode, command: .RvcRunMode.changeToMode,
            fields: [TLVElement(tag: .context(0), .unsigned(1))])
        guard case .response(let response, .structure(let fields)) = result else {
            Issue.record("no response: \(result)")
            return
        }
        #expect(response == .RvcRunMode.changeToModeResponse)
        #expect(fields.first?.value == .unsigned(0))
        #expect(await eventually(within: .seconds(30)) { reported[path].last == 0x42 && reported[path].contains(1) })
        // Docked (0x42) at start, running, then seeking the charger, charging, docked: in this order (a report
        // may carry the latest of two changes that came while the previous one awaited its acknowledgement).
        let states = Array(reported[path].drop { $0 != 1 })
        let order: [Int64] = [1, 0x40, 0x41, 0x42]
        #expect(states.first == 1 && states.last == 0x42, "\(reported[path])")
        #expect(
            zip(states, states.dropFirst()).allSatisfy { pair in
                (order.firstIndex(of: pair.0) ?? 9) < (order.firstIndex(of: pair.1) ?? -1)
            }, "\(reported[path])")
        let completion = try await controller.readEvents(
            node,
            paths: [
                EventPathIB(
                    endpoint: EndpointID(1), cluster: .rvcOperationalState,
                    event: .RvcOperationalState.operationCompletion)
            ]
        ).events
        #expect(completion.count == 1)
        #expect(
            try await controller.readAttribute(
                node, endpoint: EndpointID(1), cluster: .rvcRunMode, attribute: .RvcRunMode.currentMode)
                == .value(.unsigned(0)))
        try await controller.cancel(reported.subscription)
        await controller.stop()
        await device.stop()
    }

    @Test("a laundry washer runs a cycle: Start, Pause, Resume and Stop with their answers, then OperationCompletion")
    func washerCycle() async throws {
        let node = NodeID(28)
        let (_, device, controller) = try await commissioned("laundry-washer", node: node)
        func command(_ id: CommandID) async throws -> UInt64? {
            let result = try await controller.invoke(
                node, endpoint: EndpointID(1), cluster: .operationalState, command: id)
            guard case .response(let response, .structure(let fields)) = result,
                response == .OperationalState.operationalCommandResponse,
                case .structure(let state)? = fields.first(where: { $0.tag == .context(0) })?.value,
                case .unsigned(let error)? = state.first(where: { $0.tag == .context(0) })?.value
            else { return nil }
            return error
        }
        func state() async -> TLVValue? {
            await device.deviceValue(1, .operationalState, .OperationalState.operationalState)
        }
        #expect(try await command(.OperationalState.pause) == 3)  // CommandInvalidInState: nothing runs
        #expect(try await command(.OperationalState.start) == 0)
        #expect(await state() == .unsigned(1))
        // 30 s at Start, one less each second after: a loaded machine may take a second or more to get here.
        let countdown = await device.deviceValue(1, .operationalState, .OperationalState.countdownTime)
        if case .unsigned(let left)? = countdown {
            #expect((1...30).contains(left))
        } else {
            Issue.record("CountdownTime while running: \(String(describing: countdown))")
        }
        #expect(try await command(.OperationalState.pause) == 0)
        #expect(await state() == .unsigned(2))
        #expect(try await command(.OperationalState.resume) == 0)
        #expect(await state() == .unsigned(1))
        #expect(try await command(.OperationalState.stop) == 0)
        #expect(await state() == .unsigned(0))
        let events = try await controller.readEvents(
            node,
            paths: [
                EventPathIB(
                    endpoint: EndpointID(1), cluster: .operationalState, event: .OperationalState.operationCompletion)
            ]
        ).events
        #expect(events.count == 1)
        #expect(events.first?.fields.first { $0.name == "CompletionErrorCode" }?.value == .unsigned(0))
        await controller.stop()
        await device.stop()
    }
}
