import MatterController
import MatterCore
import MatterStorage

/// `matter-emu group create <name>`.
struct GroupCreateCommand: CLICommand {
    static let path = ["group", "create"]
    static let summary = "create an empty group (a name that stands where a node would)"
    static let options = ControllerOptions.store
    static let positionals: [PositionalSpec] = [.required("name", "group name (unique among nodes and groups)")]
    let context: ControllerContext
    let output: CLIContext
    let name: String

    init(arguments: ParsedArguments, context: CLIContext) throws {
        self.context = try ControllerContext(arguments, command: Self.pathString)
        output = context
        name = arguments.positionals[0]
        guard name.contains(where: { !$0.isWhitespace }) else {
            throw UsageError("the group name cannot be empty", command: Self.pathString)
        }
        guard ControllerContext.number(name) == nil else {
            throw UsageError("a group name cannot be a number (it would read as a node ID)", command: Self.pathString)
        }
    }

    func run() async throws -> ExitCode {
        let store = try context.openStore()
        do { try store.createGroup(name) } catch { throw StoreCommandError(error) }
        GroupShowCommand.report(ControllerGroup(name: name), store: store, output: output)
        return .success
    }
}

/// `matter-emu group delete <name>`.
struct GroupDeleteCommand: CLICommand {
    static let path = ["group", "delete"]
    static let summary = "delete a group (its nodes stay)"
    static let options = ControllerOptions.store
    static let positionals: [PositionalSpec] = [.required("name", "group name")]
    let context: ControllerContext
    let output: CLIContext
    let name: String

    init(arguments: ParsedArguments, context: CLIContext) throws {
        self.context = try ControllerContext(arguments, command: Self.pathString)
        output = context
        name = arguments.positionals[0]
    }

    func run() async throws -> ExitCode {
        let store = try context.openStore()
        do { try store.deleteGroup(name) } catch { throw StoreCommandError(error) }
        if output.json {
            output.output.printJSON(.object([("group", .string(name)), ("deleted", .bool(true))]))
        } else {
            output.output.print("group \"\(name)\" deleted")
        }
        return .success
    }
}

/// `matter-emu group add <group> <node> [<endpoint>]`.
struct GroupAddCommand: CLICommand {
    static let path = ["group", "add"]
    static let summary = "add a node's endpoint (default 1) to a group"
    static let options = ControllerOptions.store
    static let positionals: [PositionalSpec] = [
        .required("group", "group name"), .required("node", "node ID or name"),
        .optional("endpoint", "endpoint (default 1)"),
    ]
    let context: ControllerContext
    let output: CLIContext
    let group: String
    let node: String
    let endpoint: EndpointID

    init(arguments: ParsedArguments, context: CLIContext) throws {
        self.context = try ControllerContext(arguments, command: Self.pathString)
        output = context
        group = arguments.positionals[0]
        node = arguments.positionals[1]
        endpoint =
            try arguments.positionals.count > 2
            ? ControllerContext.endpoint(arguments.positionals[2], command: Self.pathString) : EndpointID(1)
    }

    func run() async throws -> ExitCode {
        let store = try context.openStore()
        let stored = try context.node(node, in: store)
        do { try store.addToGroup(group, nodeID: stored.nodeID, endpoint: endpoint) } catch {
            throw StoreCommandError(error)
        }
        try GroupShowCommand.show(group, store: store, output: output)
        return .success
    }
}

/// `matter-emu group remove <group> <node> [<endpoint>]`.
struct GroupRemoveCommand: CLICommand {
    static let path = ["group", "remove"]
    static let summary = "remove a node (one endpoint, or all of its endpoints) from a group"
    static let options = ControllerOptions.store
    static let positionals: [PositionalSpec] = [
        .required("group", "group name"), .required("node", "node ID or name"),
        .optional("endpoint", "endpoint (default: every endpoint of the node)"),
    ]
    let context: ControllerContext
    let output: CLIContext
    let group: String
    let node: String
    let endpoint: EndpointID?

    init(arguments: ParsedArguments, context: CLIContext) throws {
        self.context = try ControllerContext(arguments, command: Self.pathString)
        output = context
        group = arguments.positionals[0]
        node = arguments.positionals[1]
        endpoint =
            try arguments.positionals.count > 2
            ? ControllerContext.endpoint(arguments.positionals[2], command: Self.pathString) : nil
    }

    func run() async throws -> ExitCode {
        let store = try context.openStore()
        let stored = try context.node(node, in: store)
        let removed: Bool
        do { removed = try store.removeFromGroup(group, nodeID: stored.nodeID, endpoint: endpoint) } catch {
            throw StoreCommandError(error)
        }
        guard removed else {
            throw UsageError("node \(nodeLabel(stored)) is not in group \"\(group)\"", command: Self.pathString)
        }
        try GroupShowCommand.show(group, store: store, output: output)
        return .success
    }
}

/// `matter-emu group list`.
struct GroupListCommand: CLICommand {
    static let path = ["group", "list"]
    static let summary = "list the groups and their members"
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
        let groups: [ControllerGroup]
        do { groups = try store.groups() } catch { throw ControllerError.storage(error) }
        if output.json {
            output.output.printJSON(.object([("groups", .array(groups.map(GroupShowCommand.json)))]))
        } else if groups.isEmpty {
            output.output.progress("no groups yet: create one with 'matter-emu group create <name>'")
        } else {
            output.output.print(groups.map(GroupShowCommand.text).joined(separator: "\n"))
        }
        return .success
    }
}

/// `matter-emu group show <group>`.
struct GroupShowCommand: CLICommand {
    static let path = ["group", "show"]
    static let summary = "show a group's members"
    static let options = ControllerOptions.store
    static let positionals: [PositionalSpec] = [.required("group", "group name")]
    let context: ControllerContext
    let output: CLIContext
    let group: String

    init(arguments: ParsedArguments, context: CLIContext) throws {
        self.context = try ControllerContext(arguments, command: Self.pathString)
        output = context
        group = arguments.positionals[0]
    }

    func run() async throws -> ExitCode {
        try Self.show(group, store: try context.openStore(), output: output)
        return .success
    }

    static func show(_ name: String, store: ControllerStore, output: CLIContext) throws {
        let group: ControllerGroup?
        do { group = try store.group(named: name) } catch { throw ControllerError.storage(error) }
        guard let group else { throw UsageError("no group named \"\(name)\" (see 'matter-emu group list')") }
        report(group, store: store, output: output)
    }

    static func report(_ group: ControllerGroup, store: ControllerStore, output: CLIContext) {
        if output.json { output.output.printJSON(json(group)) } else { output.output.print(text(group)) }
    }

    static func json(_ group: ControllerGroup) -> JSONValue {
        .object([
            ("group", .string(group.name)),
            (
                "members",
                .array(
                    group.members.map {
                        .object([("node", $0.nodeID.json), ("endpoint", .uint(UInt64($0.endpoint.rawValue)))])
                    })
            ),
        ])
    }

    static func text(_ group: ControllerGroup) -> String {
        let members = group.members.map { "\($0.nodeID.rawValue)/\($0.endpoint.rawValue)" }
        return "\(group.name): " + (members.isEmpty ? "(no members)" : members.joined(separator: ", "))
    }
}
