import MatterClusters
import MatterCore
import MatterInteraction
@testable import MatterDataModel
import Testing

@Test func tmpListGaps() throws {
    var lines: [String] = []
    for preset in DevicePreset.all {
        let bench = try Bench(preset)
        for endpoint in bench.model.endpoints where endpoint != .root {
            for id in bench.model.clusters(endpoint: endpoint) {
                guard let server = bench.model.cluster(id, on: endpoint) as? GenericClusterServer else { continue }
                let missing = server.acceptedCommands.filter { !server.hasBehaviour($0.id) }.map { server.schema.command($0.id)?.name ?? "?" }
                if !missing.isEmpty { lines.append("\(preset.cliName) ep\(endpoint.rawValue) \(server.schema.name): \(missing.joined(separator: ","))") }
            }
        }
    }
    print("GAPS\n" + lines.joined(separator: "\n"))
}

@Test func tmpModes() throws {
    for name in ["mode-select", "energy-evse", "water-heater", "laundry-washer", "dishwasher", "microwave-oven", "refrigerator", "oven", "robotic-vacuum-cleaner", "laundry-dryer", "device-energy-management"] {
        guard let preset = try? DevicePreset(cliName: name), let bench = try? Bench(preset) else { continue }
        for endpoint in bench.model.endpoints where endpoint != .root {
            for id in bench.model.clusters(endpoint: endpoint) {
                guard let server = bench.model.cluster(id, on: endpoint) as? GenericClusterServer, server.schema.name.hasSuffix("Mode") || server.schema.name == "ModeSelect" else { continue }
                print("MODE \(name) ep\(endpoint.rawValue) \(server.schema.name) \(server.attributes.map(\.id.rawValue)) supported=\(String(describing: server.value(AttributeID(0))).prefix(300)) current=\(String(describing: server.value(AttributeID(1)))) beh=\(server.acceptedCommands.map { server.hasBehaviour($0.id) })")
            }
        }
    }
}
