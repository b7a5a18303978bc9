import MatterController
import MatterCore
import MatterStorage

/// `matter-emu nodes`: the commissioned nodes in the store.
struct NodesCommand: CLICommand {
    static let path = ["nodes"]
    static let summary = "list the commissioned nodes (ID, name, room, vendor/product, device types, address)"
    static let options = ControllerOptions.store
    static let positionals: [PositionalSpec] = []
    let context: ControllerContext
    let output: CLIContext

    init(arguments: ParsedArguments, context: CLIContext) throws {
        self.context = try ControllerContext(arguments, command: Self.pathString)
        output = context
    }

    func run() async throws -> ExitCode {
        let store = try context.openStore()
        let nodes: [ControllerNode]
        do { nodes = try store.nodes() } catch { throw ControllerError.storage(error) }
        let interrupted = try Controller.interruptedCommissionings(in: store)
        if !interrupted.isEmpty {
            output.output.progress(
                "note: interrupted commissioning of node "
                    + interrupted.map { "\($0.rawValue)" }.joined(separator: ", ")
                    + " (not a node yet): 'matter-emu pairing resume' finishes or forgets it")
        }
        if output.json {
            output.output.printJSON(.object([("nodes", .array(nodes.map(Self.json)))]))
        } else if nodes.isEmpty {
            output.output.progress("no nodes yet: commission one with 'matter-emu pairing code <node-id> <payload>'")
        } else {
            output.output.print(nodes.map(Self.text).joined(separator: "\n"))
        }
        return .success
    }

    static func json(_ node: ControllerNode) -> JSONValue {
        .object([
            ("node", node.nodeID.json), ("name", node.name.map { .string($0) } ?? .null),
            ("room", node.room.map { .string($0) } ?? .null), ("vendorID", .uint(UInt64(node.vendorID.rawValue))),
            ("productID", .uint(UInt64(node.productID.rawValue))), ("deviceTypes", json(node.deviceTypes)),
            ("lastAddress", node.lastAddress.map { .string($0) } ?? .null),
            ("attestationSkipped", .bool(node.attestationSkipped)), ("commissionedAt", .int(node.commissionedAt)),
        ])
    }

    static func json(_ types: [NodeDeviceType]) -> JSONValue {
        .array(
            types.map { type in
                .object([
                    ("endpoint", .uint(UInt64(type.endpoint.rawValue))),
                    ("deviceType", .uint(UInt64(type.deviceType.rawValue))),
                    ("name", .string(DeviceTypeNames.name(of: type.deviceType))),
                    ("revision", .uint(UInt64(type.revision))),
                ])
            })
    }

    static func text(_ node: ControllerNode) -> String {
        var parts = [
            "\(node.nodeID.rawValue)".padding(to: 6), (node.name.map { "\"\($0)\"" } ?? "-").padding(to: 20),
            (node.room ?? "-").padding(to: 14), "VID \(node.vendorID) PID \(node.productID)",
        ]
        let applications = node.deviceTypes.filter { $0.endpoint.rawValue != 0 }
        if !applications.isEmpty {
            parts.append(" " + applications.map { DeviceTypeNames.name(of: $0.deviceType) }.joined(separator: ", "))
        }
        if let address = node.lastAddress { parts.append("  \(address)") }
        if node.attestationSkipped { parts.append("  (attestation skipped)") }
        return parts.joined()
    }
}

/// `matter-emu rename <node> <name>`.
struct RenameCommand: CLICommand {
    static let path = ["rename"]
    static let summary = "give a node a new name (unique among nodes and groups)"
    static let options = ControllerOptions.store
    static let positionals: [PositionalSpec] = [
        .required("node", "node ID or current name"), .required("name", "the new name"),
    ]
    let context: ControllerContext
    let output: CLIContext
    let node: String
    let name: String

    init(arguments: ParsedArguments, context: CLIContext) throws {
        self.context = try ControllerContext(arguments, command: Self.pathString)
        output = context
        node = arguments.positionals[0]
        name = arguments.positionals[1]
        guard name.contains(where: { !$0.isWhitespace }) else {
            throw UsageError("the name cannot be empty", command: Self.pathString)
        }
    }

    func run() async throws -> ExitCode {
        let store = try context.openStore()
        let stored = try context.node(node, in: store)
        do { try store.rename(stored.nodeID, to: name) } catch { throw StoreCommandError(error) }
        if output.json {
            output.output.printJSON(.object([("node", stored.nodeID.json), ("name", .string(name))]))
        } else {
            output.output.print("node \(stored.nodeID.rawValue) is now \"\(name)\"")
        }
        return .success
    }
}

/// A store refusal caused by the user's input (a name already used...) is a usage error; the rest
/// are storage errors.
struct StoreCommandError: Error, CustomStringConvertible, ExitCodeProviding {
    let error: StorageError

    init(_ error: StorageError) { self.error = error }

    var description: String { error.description }

    var exitCode: ExitCode {
        switch error {
        case .nameAlreadyUsed, .invalidArgument, .noSuchNode, .noSuchGroup, .nodeAlreadyExists: .usage
        default: .storage
        }
    }
}
