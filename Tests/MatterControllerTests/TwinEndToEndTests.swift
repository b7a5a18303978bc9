import MatterClusters
import MatterController
import MatterCore
import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterTLV
import MatterTestSupport
import Testing

/// A node's wildcard read as a dump: every attribute value, statuses left out.
private func dump(_ controller: Controller, _ node: NodeID) async throws -> NodeDump {
    let result = try await controller.read(node, paths: [AttributePathIB()])
    var attributes: [NodeDump.Path: TLVValue] = [:]
    for report in result.attributes {
        guard case .success(let value) = report.result else { continue }
        attributes[NodeDump.Path(report.path.endpoint, report.path.cluster, report.path.attribute)] = value
    }
    return NodeDump(attributes: attributes, nodeID: node.rawValue)
}

@Suite("Twins of recorded devices, end to end on loopback")
struct TwinEndToEndTests {
    /// Starts a twin of `dump` and commissions it as `node`.
    func twin(of dump: NodeDump, _ bed: TestBed, _ controller: Controller, node: NodeID) async throws -> VirtualDevice {
        var configuration = VirtualDeviceConfiguration(
            deviceType: "dimmable-light", storagePath: bed.directory.file("twin-\(node.rawValue).sqlite"),
            pkiDirectory: TestPaths.pkiDirectory)
        configuration.port = 0
        configuration.advertise = false
        configuration.mrp = TestBed.fastMRP
        configuration.twin = try NodeTwin(dump)
        let device = try await VirtualDevice.start(configuration)
        // Attested through the any-vendor PAA of the default trust store, for the recording's VID and PID.
        _ = try await controller.commission(device.request(nodeID: node))
        return device
    }

    @Test(
        "node dump then a twin: the twin's wildcard read equals the original's, fabric-bound attributes aside",
        arguments: DevicePreset.all.map(\.cliName))
    func roundTrip(_ type: String) async throws {
        let bed = try TestBed()
        let original = try await bed.device(type)
        let controller = try await bed.controller()
        _ = try await controller.commission(original.request(nodeID: NodeID(1)))
        let recorded = try await dump(controller, NodeID(1))
        // Through the file, as a user does it: the native format reads back exactly.
        let file = try NodeDump.read(json: recorded.json(.native, recordedAt: "2026-12-06T00:00:00Z"))
        #expect(file == recorded)
        await original.stop()
        let twin = try await twin(of: file, bed, controller, node: NodeID(2))
        let replayed = try await dump(controller, NodeID(2))
        let paths = Set(recorded.attributes.keys).union(replayed.attributes.keys).filter { !NodeTwin.isFabricBound($0) }
        for path in paths.sorted() where recorded.attributes[path] != replayed.attributes[path] {
            let was = String(describing: recorded.attributes[path])
            let now = String(describing: replayed.attributes[path])
            Issue.record("\(type) \(path): recorded \(was), twin \(now)")
        }
        #expect(paths.count > 20)
        await twin.stop()
        await controller.stop()
    }

    @Test(
        "a twin keeps its recorded state where a behaviour would set up a fresh device's: a thermostat Off at 22.5 °C")
    func recordedStateWins() async throws {
        let bed = try TestBed()
        let original = try await bed.device("thermostat")
        let controller = try await bed.controller()
        _ = try await controller.commission(original.request(nodeID: NodeID(1)))
        var recorded = try await dump(controller, NodeID(1))
        await original.stop()
        recorded.attributes[NodeDump.Path(EndpointID(1), .thermostat, .Thermostat.systemMode)] = .unsigned(0)
        recorded.attributes[NodeDump.Path(EndpointID(1), .thermostat, .Thermostat.localTemperature)] = .signed(2250)
        let twin = try await twin(of: recorded, bed, controller, node: NodeID(2))
        for (attribute, value) in [
            (AttributeID.Thermostat.systemMode, TLVValue.unsigned(0)), (.Thermostat.localTemperature, .signed(2250)),
        ] {
            #expect(
                try await controller.readAttribute(
                    NodeID(2), endpoint: EndpointID(1), cluster: .thermostat, attribute: attribute) == .value(value))
        }
        // Its behaviour runs: Heat below the setpoint heats the room (the twin's room rests at 22.5 °C).
        try await controller.writeAttribute(
            NodeID(2), endpoint: EndpointID(1), cluster: .thermostat, attribute: .Thermostat.systemMode,
            value: .unsigned(4))
        try await controller.writeAttribute(
            NodeID(2), endpoint: EndpointID(1), cluster: .thermostat, attribute: .Thermostat.occupiedHeatingSetpoint,
            value: .signed(2400))
        #expect(
            await eventually(within: .seconds(30), every: .milliseconds(200)) {
                let running = try? await controller.readAttribute(
                    NodeID(2), endpoint: EndpointID(1), cluster: .thermostat,
                    attribute: .Thermostat.thermostatRunningState)
                return running == .value(.unsigned(1))
            })
        await twin.stop()
        await controller.stop()
    }

    @Test("a twin's commands: OnOff toggles through the catalogue's behaviour; a vendor's command answers success")
    func commands() async throws {
        let bed = try TestBed()
        let original = try await bed.device("on-off-light")
        let controller = try await bed.controller()
        _ = try await controller.commission(original.request(nodeID: NodeID(1)))
        var recorded = try await dump(controller, NodeID(1))
        await original.stop()
        // A vendor's cluster on endpoint 1: an attribute of opaque bytes and one command.
        let vendor = ClusterID(0xFFF1_FC01)
        func set(_ cluster: ClusterID, _ attribute: AttributeID, _ value: TLVValue) {
            recorded.attributes[NodeDump.Path(EndpointID(1), cluster, attribute)] = value
        }
        func list(_ values: [UInt64]) -> TLVValue { .array(values.map { TLVElement(.unsigned($0)) }) }
        set(vendor, AttributeID(0), .bytes([0xDE, 0xAD]))
        set(vendor, .acceptedCommandList, list([0x10]))
        set(vendor, .generatedCommandList, list([]))
        set(vendor, .attributeList, list([0, 65528, 65529, 65531, 65532, 65533]))
        set(vendor, .featureMap, .unsigned(0))
        set(vendor, .clusterRevision, .unsigned(1))
        let servers = recorded.identifiers(EndpointID(1), .descriptor, .Descriptor.serverList) ?? []
        set(.descriptor, .Descriptor.serverList, list(servers + [UInt64(vendor.rawValue)]))
        let twin = try await twin(of: recorded, bed, controller, node: NodeID(2))
        let node = NodeID(2)
        #expect(
            try await controller.readAttribute(
                node, endpoint: EndpointID(1), cluster: vendor, attribute: AttributeID(0))
                == .value(.bytes([0xDE, 0xAD])))
        _ = try await controller.invoke(node, endpoint: EndpointID(1), cluster: .onOff, command: .OnOff.toggle)
        #expect(
            try await controller.readAttribute(node, endpoint: EndpointID(1), cluster: .onOff, attribute: .OnOff.onOff)
                == .value(.bool(true)))
        let answer = try await controller.invoke(
            node, endpoint: EndpointID(1), cluster: vendor, command: CommandID(0x10))
        #expect(answer.isSuccess, "\(answer)")
        await twin.stop()
        await controller.stop()
    }
}
