import Foundation
import MatterClusters
import MatterCore
import MatterTestSupport
import Testing

/// Our generated model against the connectedhomeip SDK's own cluster objects (`chip.clusters.Objects` of the
/// Python controller in the SDK's venv, printed by scripts/interop/sdk_model.py): for every cluster both
/// know, the same attribute, command and event IDs, field tags, types and nullability. Every difference is
/// listed with its reason in docs/MODEL.md ("Differences from the SDK's model"); the test fails on a
/// difference that is not listed there and on a listed one that no longer occurs.
@Suite("The generated model against the connectedhomeip SDK's cluster objects")
struct SDKModelTests {
    static let python =
        ProcessInfo.processInfo.environment["CHIP_VENV"].map { "\($0)/bin/python" }
        ?? "/opt/matter-emu/chipvenv/bin/python"

    struct SDKModel: Decodable {
        struct Field: Decodable {
            var tag: Int
            var name: String
            var type: String
        }
        struct Attribute: Decodable {
            var id: UInt32
            var name: String
            var type: String
        }
        struct Command: Decodable {
            var id: UInt32
            var name: String
            var direction: String
            var fields: [Field]
        }
        struct Event: Decodable {
            var id: UInt32
            var name: String
            var fields: [Field]
        }
        struct Cluster: Decodable {
            var id: UInt32
            var name: String
            var attributes: [Attribute]
            var commands: [Command]
            var events: [Event]
        }
        var clusters: [Cluster]
    }

    /// A type reduced to what both models can say: integers of either sign as `uint`/`int` (the SDK writes
    /// enums and bitmaps as unsigned integers where we know their names), then `nullable`/`optional`.
    static func family(_ type: ClusterDataType) -> String {
        switch type {
        case .boolean: "bool"
        case .unsigned, .enumeration, .bitmap: "uint"
        case .signed: "int"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .octets: "octets"
        case .list(let element): "list<\(family(element))>"
        case .structure: "struct"
        }
    }

    static func family(sdk type: String) -> (base: String, nullable: Bool, optional: Bool) {
        var words = type.split(separator: " ").map(String.init)
        let optional = words.first == "optional"
        if optional { words.removeFirst() }
        let nullable = words.first == "nullable"
        if nullable { words.removeFirst() }
        var base = words.joined(separator: " ")
        for (from, to) in [("enum", "uint"), ("bitmap", "uint")] {
            base = base.replacingOccurrences(of: from, with: to)
        }
        base = base.replacingOccurrences(of: #"struct:[A-Za-z0-9_]+"#, with: "struct", options: .regularExpression)
        return (base, nullable, optional)
    }

    static func compareFields(_ ours: [FieldSchema], _ sdk: [SDKModel.Field], at path: String) -> [String] {
        var differences: [String] = []
        for field in sdk {
            guard let mine = ours.first(where: { Int($0.tag) == field.tag }) else {
                differences.append("\(path) field \(field.tag) only in the SDK")
                continue
            }
            let theirs = family(sdk: field.type)
            if family(mine.type) != theirs.base {
                differences.append("\(path) field \(field.tag) type \(family(mine.type)) vs \(theirs.base)")
            }
            if mine.isNullable != theirs.nullable {
                differences.append("\(path) field \(field.tag) nullable \(mine.isNullable) vs \(theirs.nullable)")
            }
            if mine.isOptional != theirs.optional, mine.tag != 0xFE {
                differences.append("\(path) field \(field.tag) optional \(mine.isOptional) vs \(theirs.optional)")
            }
        }
        for field in ours where !sdk.contains(where: { $0.tag == Int(field.tag) }) {
            differences.append("\(path) field \(field.tag) only in the model")
        }
        return differences
    }

    /// Every difference between the two models, one line each.
    static func differences(_ sdk: SDKModel) -> [String] {
        var differences: [String] = []
        let registry = ClusterRegistry.standard
        for cluster in sdk.clusters {
            guard let ours = registry.cluster(ClusterID(cluster.id)) else {
                differences.append("cluster \(cluster.name) only in the SDK")
                continue
            }
            let name = ours.name
            for attribute in cluster.attributes {
                let path = "\(name).\(attribute.name)"
                guard let mine = ours.attribute(AttributeID(attribute.id)) else {
                    differences.append("attribute \(path) only in the SDK")
                    continue
                }
                let theirs = family(sdk: attribute.type)
                if family(mine.type) != theirs.base {
                    differences.append("attribute \(path) type \(family(mine.type)) vs \(theirs.base)")
                }
                if mine.isNullable != theirs.nullable {
                    differences.append("attribute \(path) nullable \(mine.isNullable) vs \(theirs.nullable)")
                }
            }
            for attribute in ours.attributes
            where !cluster.attributes.contains(where: { $0.id == attribute.id.rawValue }) {
                differences.append("attribute \(name).\(attribute.name) only in the model")
            }
            for command in cluster.commands {
                let isRequest = command.direction == "request"
                let path = "\(name).\(command.name)"
                guard
                    let mine = isRequest
                        ? ours.command(CommandID(command.id)) : ours.response(CommandID(command.id))
                else {
                    differences.append("command \(path) only in the SDK")
                    continue
                }
                differences += compareFields(mine.fields, command.fields, at: "command \(path)")
            }
            for command in ours.commands
            where !cluster.commands.contains(where: {
                $0.direction == "request" && $0.id == command.id.rawValue
            }) {
                differences.append("command \(name).\(command.name) only in the model")
            }
            for command in ours.responses
            where !cluster.commands.contains(where: {
                $0.direction == "response" && $0.id == command.id.rawValue
            }) {
                differences.append("command \(name).\(command.name) only in the model")
            }
            for event in cluster.events {
                let path = "\(name).\(event.name)"
                guard let mine = ours.event(EventID(event.id)) else {
                    differences.append("event \(path) only in the SDK")
                    continue
                }
                differences += compareFields(mine.fields, event.fields, at: "event \(path)")
            }
            for event in ours.events where !cluster.events.contains(where: { $0.id == event.id.rawValue }) {
                differences.append("event \(name).\(event.name) only in the model")
            }
        }
        for cluster in registry.clusters where !sdk.clusters.contains(where: { $0.id == cluster.id.rawValue }) {
            differences.append("cluster \(cluster.name) only in the model")
        }
        return differences
    }

    /// The differences docs/MODEL.md lists in its section "Differences from the SDK's model": lines `- `
    /// followed by a difference in backticks.
    static func documented() throws -> Set<String> {
        let text = try String(
            contentsOf: TestPaths.repositoryRoot.appendingPathComponent("docs/MODEL.md"), encoding: .utf8)
        guard let section = text.range(of: "## Differences from the SDK's model") else { return [] }
        var listed: Set<String> = []
        for line in text[section.upperBound...].split(separator: "\n") where line.hasPrefix("- `") {
            let rest = line.dropFirst(3)
            guard let end = rest.firstIndex(of: "`") else { continue }
            listed.insert(String(rest[..<end]))
        }
        return listed
    }

    @Test(
        "every difference from the SDK's cluster objects is documented with its reason",
        .enabled(if: FileManager.default.isExecutableFile(atPath: python), "the SDK's venv (scripts/setup.sh)"))
    func sameAsTheSDK() async throws {
        let script = TestPaths.repositoryRoot.appendingPathComponent("scripts/interop/sdk_model.py").path
        let result = try await ProcessRunner.run([Self.python, script], limit: .seconds(300))
        try #require(result.exitCode == 0, "sdk_model.py: \(result.stderr)")
        let sdk = try JSONDecoder().decode(SDKModel.self, from: Data(result.stdout.utf8))
        #expect(sdk.clusters.count > 100)
        let found = Self.differences(sdk)
        let listed = try Self.documented()
        let undocumented = found.filter { !listed.contains($0) }
        let stale = listed.subtracting(found)
        #expect(undocumented.isEmpty, "not in docs/MODEL.md:\n\(undocumented.joined(separator: "\n"))")
        #expect(
            stale.isEmpty, "in docs/MODEL.md but no longer a difference:\n\(stale.sorted().joined(separator: "\n"))")
    }
}
