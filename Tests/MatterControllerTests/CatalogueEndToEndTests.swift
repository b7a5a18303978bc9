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
        "every catalogue type starts, with its device type on endpoint 1 and its product ID",
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
        #expect(types.count == 1)
        #expect(
            types.first.flatMap { entry -> UInt64? in
                guard case .structure(let fields) = entry.value else { return nil }
                guard case .unsigned(let id)? = fields.first(where: { $0.tag == .context(0) })?.value else {
                    return nil
                }
                return id
            } == UInt64(preset.schema.id))
        await device.stop()
    }
}
