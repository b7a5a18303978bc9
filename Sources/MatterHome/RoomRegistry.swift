package import MatterStorage

/// The rooms of one state directory: the empty ones made with ``Structure/createRoom(name:)`` or
/// `matter-emu rooms create` (home records beside the controller's tables) and those nodes are in.
/// Room names compare without case (Swift's `lowercased()`); a room keeps its first spelling.
/// Shared by the Home API and the CLI so that both see the same rooms.
package struct RoomRegistry: Sendable {
    let store: ControllerStore
    let records: KeyValueStore

    static let namespace = "home.rooms"

    init(store: ControllerStore, records: KeyValueStore) {
        self.store = store
        self.records = records
    }

    /// The rooms of the state directory whose store is `store`.
    package init(store: ControllerStore) throws(HomeError) {
        do { records = try KeyValueStore(database: store.database) } catch { throw HomeError(error) }
        self.store = store
    }

    /// Every room, sorted by ID.
    package func rooms() throws(HomeError) -> [Room] {
        var byID: [String: Room] = [:]
        do {
            for key in try records.keys(namespace: Self.namespace) {
                if let stored = try records.get(key, namespace: Self.namespace) {
                    let room = Room(name: String(decoding: stored, as: UTF8.self))
                    byID[room.id] = room
                }
            }
            for name in try store.rooms() where byID[name.lowercased()] == nil {
                byID[name.lowercased()] = Room(name: name)
            }
        } catch {
            throw HomeError(error)
        }
        return byID.values.sorted { $0.id < $1.id }
    }

    /// Creates an empty room.
    /// - Throws: `invalidArgument` for an empty name or one a room already has.
    package func create(_ name: String) throws(HomeError) -> Room {
        guard name.contains(where: { !$0.isWhitespace }) else { throw .invalid("a room name cannot be empty") }
        let room = Room(name: name)
        guard try !rooms().contains(where: { $0.id == room.id }) else {
            throw .invalid("there is already a room named \"\(name)\"", code: .alreadyExists)
        }
        do { try records.set(room.id, to: Array(name.utf8), namespace: Self.namespace) } catch {
            throw HomeError(error)
        }
        return room
    }

    /// Deletes the room named `name`; its nodes are then in no room. Returns the room deleted.
    /// - Throws: `invalidArgument` when there is no such room.
    @discardableResult
    package func delete(_ name: String) throws(HomeError) -> Room {
        guard let room = try rooms().first(where: { $0.id == name.lowercased() }) else {
            throw .invalid("there is no room named \"\(name)\"", code: .notFound)
        }
        do {
            _ = try records.remove(room.id, namespace: Self.namespace)
            for node in try store.nodes() where node.room?.lowercased() == room.id {
                try store.setRoom(node.nodeID, to: nil)
            }
        } catch {
            throw HomeError(error)
        }
        return room
    }

    /// The nodes in `room`.
    package func nodes(in room: Room) throws(HomeError) -> [ControllerNode] {
        do { return try store.nodes().filter { $0.room?.lowercased() == room.id } } catch { throw HomeError(error) }
    }
}
