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

/// Device types of the catalogue that have no committed test DAC (their DAC and certification declaration are
/// issued at start by the test PAI) commissioned by our controller, which attests them against the test PAA,
/// then read, subscribed to and moved from the control plane.
@Suite("Catalogue device types end to end")
struct CatalogueEndToEndTests {
    @Test(
        "a temperature sensor: attested with a DAC issued at start; a value set on the control plane is read and reported"
    )
    func temperatureSensor() async throws {
        let bed = try TestBed()
        let device = try await bed.device("temperature-sensor")
        let controller = try await bed.controller()
        let node = NodeID(21)
        let result = try await controller.commission(device.request(nodeID: node))
        #expect(result.node.deviceTypes.map(\.deviceType).contains(DeviceTypeID(0x0302)))
        #expect(
            try await controller.readAttribute(
                node, endpoint: .root, cluster: .basicInformation, attribute: .BasicInformation.productID)
                == .value(.unsigned(0x8302)))

        let path = ConcreteAttributePath(
            endpoint: EndpointID(1), cluster: .temperatureMeasurement, attribute: .TemperatureMeasurement.measuredValue)
        let reports = Mutex<[SubscriptionReport]>([])
        let subscription = try await controller.subscribe(
            node, paths: [AttributePathIB(path)], minInterval: 0, maxInterval: 10,
            onReport: { report in reports.withLock { $0.append(report) } })
        let answer = await device.control(
            #"{"op":"set","endpoint":1,"cluster":"TemperatureMeasurement","attribute":"MeasuredValue","value":2150}"#)
        #expect(answer.contains(#""ok":true"#), "\(answer)")
        #expect(
            try await controller.readAttribute(
                node, endpoint: EndpointID(1), cluster: .temperatureMeasurement,
                attribute: .TemperatureMeasurement.measuredValue) == .value(.signed(2150)))
        var waited = 0
        while reports.withLock({ $0.isEmpty }), waited < 500 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        #expect(reports.withLock { $0.first?.result.report(for: path)?.value } == .signed(2150))
        // Out of the model's range (int16 with -27315 as its floor): refused, nothing changes.
        let refused = await device.control(
            #"{"op":"set","endpoint":1,"cluster":"TemperatureMeasurement","attribute":"MeasuredValue","value":-40000}"#)
        #expect(refused.contains(#""ok":false"#), "\(refused)")
        await controller.cancel(subscription)
        await controller.stop()
        await device.stop()
    }

    @Test(
        "a script from the control plane moves a sensor: our controller's subscription receives each step; a set takes the attribute back"
    )
    func scriptedSensor() async throws {
        let bed = try TestBed()
        let device = try await bed.device("temperature-sensor")
        let controller = try await bed.controller()
        let node = NodeID(22)
        _ = try await controller.commission(device.request(nodeID: node))
        let path = ConcreteAttributePath(
            endpoint: EndpointID(1), cluster: .temperatureMeasurement, attribute: .TemperatureMeasurement.measuredValue)
        let reported = try await ReportedIntegers.subscribe(controller, node, [path])
        let started = await device.control(
            #"{"op":"script","cluster":"TemperatureMeasurement","attribute":"MeasuredValue","script":"steps(0:1800,1s:1900,2s:2000)"}"#
        )
        #expect(started.contains(#""ok":true"#), "\(started)")
        #expect(await eventually(within: .seconds(20)) { reported[path].last == 2000 }, "\(reported[path])")
        #expect(reported[path].suffix(3) == [1800, 1900, 2000], "\(reported[path])")
        #expect(await device.control(#"{"op":"scripts"}"#) == #"{"ok":true,"scripts":[]}"#)  // done

        // A running script is listed; a value set by hand stops it; a bad one is refused.
        _ = await device.control(
            #"{"op":"script","cluster":"TemperatureMeasurement","attribute":"MeasuredValue","script":"sine(min=1000,max=3000,period=1h)"}"#
        )
        #expect(await device.control(#"{"op":"scripts"}"#).contains(#""script":"sine(min=1000,max=3000,period=1h)""#))
        _ = await device.control(
            #"{"op":"set","endpoint":1,"cluster":"TemperatureMeasurement","attribute":"MeasuredValue","value":2222}"#)
        #expect(await device.control(#"{"op":"scripts"}"#) == #"{"ok":true,"scripts":[]}"#)
        let refused = await device.control(
            #"{"op":"script","cluster":"TemperatureMeasurement","attribute":"MeasuredValue","script":"sine(min=1)"}"#)
        #expect(refused.contains("sine needs max=NUMBER"), "\(refused)")
        #expect(
            try await controller.readAttribute(
                node, endpoint: EndpointID(1), cluster: .temperatureMeasurement,
                attribute: .TemperatureMeasurement.measuredValue) == .value(.signed(2222)))
        try await controller.cancel(reported.subscription)
        await controller.stop()
        await device.stop()
    }

    @Test(
        "a bridge: our controller sees every bridged endpoint; devices added and removed through the control plane change the PartsLists it subscribes to; an unreachable one sends ReachableChanged"
    )
    func bridge() async throws {
        let bed = try TestBed()
        let device = try await bed.device(
            "aggregator", bridged: [("on-off-light", 2), ("temperature-sensor", 1), ("contact-sensor", 1)])
        let controller = try await bed.controller()
        let node = NodeID(23)
        let result = try await controller.commission(device.request(nodeID: node))
        #expect(result.node.deviceTypes.map(\.deviceType).contains(DeviceTypeID(0x000E)))
        let parts = ConcreteAttributePath(
            endpoint: EndpointID(1), cluster: .descriptor, attribute: .Descriptor.partsList)
        @Sendable func list(_ value: TLVValue?) -> [UInt64] {
            guard case .array(let items)? = value else { return [] }
            return items.compactMap { if case .unsigned(let n) = $0.value { n } else { nil } }
        }
        #expect(
            list(
                try await controller.readAttribute(
                    node, endpoint: EndpointID(1), cluster: .descriptor, attribute: .Descriptor.partsList
                ).value)
                == [2, 3, 4, 5])
        #expect(
            try await controller.readAttribute(
                node, endpoint: EndpointID(4), cluster: .bridgedDeviceBasicInformation,
                attribute: .BridgedDeviceBasicInformation.nodeLabel) == .value(.utf8("Temperature Sensor 1")))

        let reportedParts = Mutex<[[UInt64]]>([])
        let reachable = Mutex<[TLVValue]>([])
        let (subscription, _) = try await controller.subscribe(
            node, attributes: [AttributePathIB(parts)],
            events: [
                EventPathIB(
                    endpoint: nil, cluster: .bridgedDeviceBasicInformation,
                    event: .BridgedDeviceBasicInformation.reachableChanged)
            ], minInterval: 0, maxInterval: 10,
            onReport: { report in
                if let value = report.result.report(for: parts)?.value {
                    reportedParts.withLock { $0.append(list(value)) }
                }
            },
            onEvents: { events in
                for event in events.events where event.path.endpoint == EndpointID(3) {
                    if let value = event.fields.first?.value { reachable.withLock { $0.append(value) } }
                }
            })
        let added = await device.control(#"{"op":"bridge-add","type":"dimmable-light","label":"Desk"}"#)
        #expect(added.contains(#""endpoint":6"#), "\(added)")
        #expect(await eventually(within: .seconds(10)) { reportedParts.withLock { $0.last } == [2, 3, 4, 5, 6] })
        #expect(
            try await controller.readAttribute(
                node, endpoint: EndpointID(6), cluster: .onOff, attribute: .OnOff.onOff) == .value(.bool(false)))
        let removed = await device.control(#"{"op":"bridge-remove","endpoint":2}"#)
        #expect(removed.contains(#""removed":true"#), "\(removed)")
        #expect(await eventually(within: .seconds(10)) { reportedParts.withLock { $0.last } == [3, 4, 5, 6] })
        #expect(
            try await controller.readAttribute(node, endpoint: EndpointID(2), cluster: .onOff, attribute: .OnOff.onOff)
                != .value(.bool(false)))
        let unreachable = await device.control(#"{"op":"reachable","endpoint":3,"reachable":false}"#)
        #expect(unreachable.contains(#""ok":true"#), "\(unreachable)")
        #expect(await eventually(within: .seconds(10)) { reachable.withLock { $0 } == [.bool(false)] })
        #expect(
            try await controller.readAttribute(
                node, endpoint: EndpointID(3), cluster: .bridgedDeviceBasicInformation,
                attribute: .BridgedDeviceBasicInformation.reachable) == .value(.bool(false)))
        // Not a bridged device, not a bridge's type: refused.
        #expect(await device.control(#"{"op":"bridge-remove","endpoint":1}"#).contains("not a bridged device"))
        #expect(await device.control(#"{"op":"bridge-add","type":"aggregator"}"#).contains("not another bridge"))
        await controller.cancel(subscription)
        await controller.stop()
        await device.stop()
    }

    @Test(
        "every catalogue type starts, with its device type on endpoint 1 (and the utility parts beside it) and its product ID",
        arguments: DevicePreset.all.map(\.cliName))
    func starts(type: String) async throws {
        let bed = try TestBed()
        let device = try await bed.device(type)
        let preset = try DevicePreset(cliName: type)
        #expect(
            await device.deviceValue(0, .basicInformation, .BasicInformation.productID)
                == .unsigned(UInt64(preset.productID.rawValue)))
        guard case .array(let types)? = await device.deviceValue(1, .descriptor, .Descriptor.deviceTypeList) else {
            Issue.record("no DeviceTypeList on endpoint 1")
            return
        }
        let ids = types.map { entry -> UInt64? in
            guard case .structure(let fields) = entry.value else { return nil }
            guard case .unsigned(let id)? = fields.first(where: { $0.tag == .context(0) })?.value else { return nil }
            return id
        }
        // Its own device type first, then the utility parts that share its endpoint (an EVSE's Power Source...).
        #expect(ids.first == UInt64(preset.schema.id))
        let parts = Set(preset.schema.parts.map { UInt64($0.deviceType) })
        #expect(ids.dropFirst().allSatisfy { $0.map(parts.contains) == true }, "\(ids)")
        await device.stop()
    }

    /// Commissions a fresh device of `type` by our controller as node `node`.
    func commissioned(_ type: String, node: NodeID, timeScale: Double = 1) async throws -> (
        TestBed, VirtualDevice, Controller
    ) {
        let bed = try TestBed()
        let device = try await bed.device(type, timeScale: timeScale)
        let controller = try await bed.controller()
        _ = try await controller.commission(device.request(nodeID: node))
        return (bed, device, controller)
    }

    @Test("a contact sensor: a StateValue set on the control plane is a StateChange event with the new value")
    func contactSensorEvents() async throws {
        let node = NodeID(22)
        let (_, device, controller) = try await commissioned("contact-sensor", node: node)
        let path = EventPathIB(endpoint: EndpointID(1), cluster: .booleanState, event: .BooleanState.stateChange)
        #expect(try await controller.readEvents(node, paths: [path]).events.isEmpty)
        let answer = await device.control(
            #"{"op":"set","endpoint":1,"cluster":"BooleanState","attribute":"StateValue","value":true}"#)
        #expect(answer.contains(#""ok":true"#), "\(answer)")
        let events = try await controller.readEvents(node, paths: [path]).events
        #expect(events.count == 1)
        #expect(events.first?.fields.first { $0.name == "StateValue" }?.value == .bool(true))
        await controller.stop()
        await device.stop()
    }

    @Test("a window covering moves to the position asked, step by step, closing, then stops at rest")
    func windowCoveringMoves() async throws {
        let node = NodeID(23)
        let (_, device, controller) = try await commissioned("window-covering", node: node)
        let position = ConcreteAttributePath(
            endpoint: EndpointID(1), cluster: .windowCovering,
            attribute: .WindowCovering.currentPositionLiftPercent100ths)
        let status = ConcreteAttributePath(
            endpoint: EndpointID(1), cluster: .windowCovering, attribute: .WindowCovering.operationalStatus)
        let reported = try await ReportedIntegers.subscribe(controller, node, [position, status])
        let subscription = try reported.subscription
        #expect(subscription.priming.report(for: position)?.value == .unsigned(0))
        try await controller.invoke(
            node, endpoint: EndpointID(1), cluster: .windowCovering, command: .WindowCovering.goToLiftPercentage,
            fields: [TLVElement(tag: .context(0), .unsigned(2500))])
        var waited = 0
        while reported[status].last != 0 || reported[position].last != 2500, waited < 600 {
            try await Task.sleep(for: .milliseconds(50))
            waited += 1
        }
        let seen = reported[position]
        #expect(seen.last == 2500)
        #expect(seen.count >= 2, "\(seen)")
        #expect(seen == seen.sorted(), "the blind only closes on its way: \(seen)")
        // Closing (2) globally and for the lift while it moved, at rest (0) once there.
        #expect(reported[status].contains(0b1010) && reported[status].last == 0, "\(reported[status])")
        #expect(
            try await controller.readAttribute(
                node, endpoint: EndpointID(1), cluster: .windowCovering,
                attribute: .WindowCovering.currentPositionLiftPercentage) == .value(.unsigned(25)))
        // Out of range: refused, nothing moves.
        await #expect(throws: ControllerError.self) {
            try await controller.invoke(
                node, endpoint: EndpointID(1), cluster: .windowCovering, command: .WindowCovering.goToLiftPercentage,
                fields: [TLVElement(tag: .context(0), .unsigned(10_001))])
        }
        await controller.cancel(subscription)
        await controller.stop()
        await device.stop()
    }

    @Test("a smoke and CO alarm runs its self-test: TestInProgress, then SelfTestComplete and back to normal")
    func smokeAlarmSelfTest() async throws {
        let node = NodeID(24)
        let (_, device, controller) = try await commissioned("smoke-co-alarm", node: node)
        try await controller.invoke(
            node, endpoint: EndpointID(1), cluster: .smokeCoAlarm, command: .SmokeCoAlarm.selfTestRequest)
        #expect(await device.deviceValue(1, .smokeCoAlarm, .SmokeCoAlarm.testInProgress) == .bool(true))
        #expect(await device.deviceValue(1, .smokeCoAlarm, .SmokeCoAlarm.expressedState) == .unsigned(4))
        let path = EventPathIB(endpoint: EndpointID(1), cluster: .smokeCoAlarm, event: .SmokeCoAlarm.selfTestComplete)
        var events: [EventValue] = []
        var waited = 0
        while events.isEmpty, waited < 200 {
            try await Task.sleep(for: .milliseconds(50))
            events = try await controller.readEvents(node, paths: [path]).events
            waited += 1
        }
        #expect(events.count == 1)
        #expect(await device.deviceValue(1, .smokeCoAlarm, .SmokeCoAlarm.testInProgress) == .bool(false))
        #expect(await device.deviceValue(1, .smokeCoAlarm, .SmokeCoAlarm.expressedState) == .unsigned(0))
        await controller.stop()
        await device.stop()
    }

    @Test("a fan: a FanMode written sets its speed; a PercentSetting of 0 turns it off")
    func fanModes() async throws {
        let node = NodeID(25)
        let (_, device, controller) = try await commissioned("fan", node: node)
        try await controller.writeAttribute(
            node, endpoint: EndpointID(1), cluster: .fanControl, attribute: .FanControl.fanMode, value: .unsigned(3))
        #expect(await device.deviceValue(1, .fanControl, .FanControl.percentCurrent) == .unsigned(100))
        try await controller.writeAttribute(
            node, endpoint: EndpointID(1), cluster: .fanControl, attribute: .FanControl.percentSetting,
            value: .unsigned(0))
        #expect(await device.deviceValue(1, .fanControl, .FanControl.fanMode) == .unsigned(0))
        #expect(await device.deviceValue(1, .fanControl, .FanControl.percentCurrent) == .unsigned(0))
        await controller.stop()
        await device.stop()
    }

    @Test("a generic switch pressed from the control plane: the events of a double press and a long press, in order")
    func switchPresses() async throws {
        let node = NodeID(26)
        let (_, device, controller) = try await commissioned("generic-switch", node: node)
        let all = EventPathIB(endpoint: EndpointID(1), cluster: .switch, event: nil)
        let double = await device.control(#"{"op":"multi-press","count":2}"#)
        #expect(double.contains(#""ok":true"#), "\(double)")
        var events = try await controller.readEvents(node, paths: [all]).events
        #expect(
            events.map(\.name) == [
                "InitialPress", "ShortRelease", "InitialPress", "MultiPressOngoing", "ShortRelease",
                "MultiPressComplete",
            ])
        #expect(events.last?.fields.first { $0.name == "TotalNumberOfPressesCounted" }?.value == .unsigned(2))
        let last = try #require(events.last?.eventNumber)
        let long = await device.control(#"{"op":"long-press","seconds":1}"#)
        #expect(long.contains(#""ok":true"#), "\(long)")
        events = try await controller.readEvents(node, paths: [all], eventMin: last + 1).events
        #expect(events.map(\.name) == ["InitialPress", "LongPress", "LongRelease"])
        #expect(await device.deviceValue(1, .switch, .Switch.currentPosition) == .unsigned(0))
        // More presses than MultiPressMax (3), or a latch on a momentary switch: refused, nothing recorded.
        for refused in [#"{"op":"multi-press","count":4}"#, #"{"op":"switch","position":1}"#] {
            let answer = await device.control(refused)
            #expect(answer.contains(#""ok":false"#), "\(answer)")
        }
        let after = try await controller.readEvents(node, paths: [all], eventMin: last + 1).events
        #expect(after.count == 3)
        await controller.stop()
        await device.stop()
    }
}
