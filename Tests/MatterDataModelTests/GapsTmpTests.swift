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
