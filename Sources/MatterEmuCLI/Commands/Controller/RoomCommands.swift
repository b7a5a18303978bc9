import MatterController
import MatterCore
import MatterHome
import MatterStorage

/// `matter-emu room <node> <room>`: put a node in a room (or none, with --clear).
struct RoomCommand: CLICommand {
    static let path = ["room"]
    static let summary = "put a node in a room"
    static let options = ControllerOptions.store + [.flag("clear", "take the node out of its room")]
    static let positionals: [PositionalSpec] = [
        .required("node", "node ID or name"), .optional("room", "the room (rooms compare without case)"),
    ]
    let context: ControllerContext
    let output: CLIContext
    let node: String
    let room: String?

    init(arguments: ParsedArguments, context: CLIContext) throws {
        self.context = try ControllerContext(arguments, command: Self.pathString)
        output = context
        node = arguments.positionals[0]
        let given = arguments.positionals.count > 1 ? arguments.positionals[1] : nil
        switch (given, arguments.has("clear")) {
        case (nil, false): throw UsageError("missing argument <room> (or --clear)", command: Self.pathString)
        case (.some, true): throw UsageError("give either <room> or --clear", command: Self.pathString)
        case (let room?, false):
            guard room.contains(where: { !$0.isWhitespace }) else {
                throw UsageError("the room cannot be empty (use --clear)", command: Self.pathString)
            }
            self.room = room
        case (nil, true): room = nil
        }
    }

    func run() async throws -> ExitCode {
        let store = try context.openStore()
        let stored = try context.node(node, in: store)
        do { try store.setRoom(stored.nodeID, to: room) } catch { throw StoreCommandError(error) }
        if output.json {
            output.output.printJSON(
                .object([("node", stored.nodeID.json), ("room", room.map { .string($0) } ?? .null)]))
        } else {
            output.output.print(
                room.map { "node \(nodeLabel(stored)) is in \($0)" } ?? "node \(nodeLabel(stored)) is in no room")
        }
        return .success
    }
}

/// `matter-emu rooms`: the rooms (empty ones too) and their nodes.
struct RoomsCommand: CLICommand {
    static let path = ["rooms"]
    static let summary = "list the rooms (empty ones too) and the nodes in each"
    static let options = ControllerOptions.store
    static let positionals: [PositionalSpec] = []
    let context: ControllerContext
    let output: CLIContext

    init(arguments: ParsedArguments, context: CLIContext) throws {
        self.context = try ControllerContext(arguments, command: Self.pathString)
        output = context
    }

    func run() async throws -> ExitCode {
        let registry = try RoomRegistry(store: try context.openStore())
        var rooms: [(Room, [ControllerNode])] = []
        for room in try registry.rooms() { rooms.append((room, try registry.nodes(in: room))) }
        if output.json {
            output.output.printJSON(
                .object([
                    (
                        "rooms",
                        .array(
                            rooms.map { room, nodes in
                                .object([("room", .string(room.name)), ("nodes", .array(nodes.map(\.nodeID.json)))])
                            })
                    )
                ]))
        } else if rooms.isEmpty {
            output.output.progress(
                "no rooms yet: create one with 'matter-emu rooms create <name>' or put a node in one with "
                    + "'matter-emu room <node> <room>'")
        } else {
            output.output.print(
                rooms.map { room, nodes in
                    "\(room.name): " + (nodes.isEmpty ? "(no nodes)" : nodes.map(nodeLabel).joined(separator: ", "))
                }
                .joined(separator: "\n"))
        }
        return .success
    }
}

/// `matter-emu rooms create <name>`: an empty room (as the Home API's `createRoom(name:)`).
struct RoomsCreateCommand: CLICommand {
    static let path = ["rooms", "create"]
    static let summary = "create an empty room (rooms compare without case)"
    static let options = ControllerOptions.store
    static let positionals: [PositionalSpec] = [.required("name", "room name")]
    let context: ControllerContext
    let output: CLIContext
    let name: String

    init(arguments: ParsedArguments, context: CLIContext) throws {
        self.context = try ControllerContext(arguments, command: Self.pathString)
        output = context
        name = arguments.positionals[0]
        guard name.contains(where: { !$0.isWhitespace }) else {
            throw UsageError("the room name cannot be empty", command: Self.pathString)
        }
    }

    func run() async throws -> ExitCode {
        let room = try RoomRegistry(store: try context.openStore()).create(name)
        if output.json {
            output.output.printJSON(.object([("room", .string(room.name)), ("created", .bool(true))]))
        } else {
            output.output.print("room \"\(room.name)\" created")
        }
        return .success
    }
}

/// `matter-emu rooms delete <name>`: the room goes; its nodes are then in no room.
struct RoomsDeleteCommand: CLICommand {
    static let path = ["rooms", "delete"]
    static let summary = "delete a room (its nodes stay, in no room)"
    static let options = ControllerOptions.store
    static let positionals: [PositionalSpec] = [.required("name", "room name")]
    let context: ControllerContext
    let output: CLIContext
    let name: String

    init(arguments: ParsedArguments, context: CLIContext) throws {
        self.context = try ControllerContext(arguments, command: Self.pathString)
        output = context
        name = arguments.positionals[0]
    }

    func run() async throws -> ExitCode {
        let room = try RoomRegistry(store: try context.openStore()).delete(name)
        if output.json {
            output.output.printJSON(.object([("room", .string(room.name)), ("deleted", .bool(true))]))
        } else {
            output.output.print("room \"\(room.name)\" deleted")
        }
        return .success
    }
}
