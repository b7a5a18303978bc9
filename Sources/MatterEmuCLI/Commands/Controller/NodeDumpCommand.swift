import Foundation
import MatterClusters
import MatterController
import MatterCore
import MatterInteraction
import MatterStorage
import MatterTLV

/// `matter-emu node dump <node>`: a wildcard read of a commissioned node, written as a node dump that
/// `device --from-dump` serves again (docs/TWINS.md).
struct NodeDumpCommand: CLICommand {
    static let path = ["node", "dump"]
    static let summary = "record a commissioned node (wildcard read) as a node dump for `device --from-dump`"
    static let options: [OptionSpec] =
        ControllerOptions.network + [
            .value(
                "format", "ha|native",
                "ha: Home Assistant's node (python-matter-server's), native: ours, each value's TLV kept (default)"),
            .value("output", "FILE", "write the dump to FILE (replaced whole) instead of standard output"),
        ]
    static let positionals: [PositionalSpec] = [.required("node", "node ID or name")]
    static let discussion = """
        Reads every attribute of every endpoint and cluster of the node (fabric-filtered: fabric-scoped lists
        hold this controller's entries) and writes them in the format asked. Attributes the node refused to
        read are left out and named on standard error. With --output and --json, a summary object is printed.
        """
    let context: ControllerContext
    let output: CLIContext
    let node: String
    let format: NodeDumpFormat
    let file: String?

    init(arguments: ParsedArguments, context: CLIContext) throws {
        self.context = try ControllerContext(arguments, command: Self.pathString)
        output = context
        node = arguments.positionals[0]
        let name = arguments.value("format") ?? NodeDumpFormat.native.rawValue
        guard let format = NodeDumpFormat(rawValue: name) else {
            throw UsageError("--format \(name): expected ha or native", command: Self.pathString)
        }
        self.format = format
        file = arguments.value("output")
    }

    func run() async throws -> ExitCode {
        let stored = try context.node(node, in: try context.openStore())
        let result = try await context.withController(boundedByTimeout: true) { controller in
            await context.applyAddress(to: controller, node: stored.nodeID)
            return try await controller.read(stored.nodeID, paths: [AttributePathIB()])
        }
        var attributes: [NodeDump.Path: TLVValue] = [:]
        var refused: [String] = []
        for report in result.attributes {
            let path = NodeDump.Path(report.path.endpoint, report.path.cluster, report.path.attribute)
            switch report.result {
            case .success(let value): attributes[path] = value
            case .failure(let status): refused.append("\(path): \(status.status)")
            }
        }
        for line in refused { output.output.progress("not recorded: \(line)") }
        let dump = NodeDump(attributes: attributes, nodeID: stored.nodeID.rawValue)
        let text = dump.json(format, recordedAt: ISO8601DateFormatter().string(from: Date()))
        guard let file else {
            output.output.print(String(text.dropLast()))  // print adds the final newline
            return .success
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            throw UsageError(
                "--output \(file): cannot write it: \(error.localizedDescription)", command: Self.pathString)
        }
        let endpoints = dump.endpoints.count
        if output.json {
            output.output.printJSON(
                .object([
                    ("node", stored.nodeID.json), ("file", .string(file)), ("format", .string(format.rawValue)),
                    ("endpoints", .uint(UInt64(endpoints))), ("attributes", .uint(UInt64(attributes.count))),
                    ("notRecorded", .uint(UInt64(refused.count))),
                ]))
        } else {
            output.output.print(
                "node \(nodeLabel(stored)): \(attributes.count) attributes on \(endpoints) endpoints written to \(file) (\(format.rawValue))"
            )
        }
        return .success
    }
}
