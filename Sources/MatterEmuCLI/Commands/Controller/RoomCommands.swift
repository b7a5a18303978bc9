import MatterController
import MatterCore
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

/// `matter-emu rooms`: the rooms and their nodes.
struct RoomsCommand: CLICommand {
    static let path = ["rooms"]
    static let summary = "list the rooms and the nodes in each"
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
        var rooms: [(String, [ControllerNode])] = []
        do {
            for room in try store.rooms() { rooms.append((room, try store.nodes(inRoom: room))) }
        } catch {
            throw ControllerError.storage(error)
        }
        if output.json {
            output.output.printJSON(
                .object([
                    (
                        "rooms",
                        .array(
                            rooms.map { room, nodes in
                                .object([("room", .string(room)), ("nodes", .array(nodes.map(\.nodeID.json)))])
                            })
                    )
                ]))
        } else if rooms.isEmpty {
            output.output.progress("no rooms yet: put a node in one with 'matter-emu room <node> <room>'")
        } else {
            output.output.print(
                rooms.map { room, nodes in "\(room): " + nodes.map(nodeLabel).joined(separator: ", ") }
                    .joined(separator: "\n"))
        }
        return .success
    }
}
