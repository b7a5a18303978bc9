import MatterController
import MatterCore
import MatterStorage

/// The one structure of a home (a state directory holds one fabric): its name, rooms, devices and
/// device groups, and the commissioning lifecycle.
public struct Structure: Sendable, Identifiable {
    let home: HomeContext
    /// The structure's ID (one structure per state directory: always `default`).
    public let id = "default"
    /// The structure's name (`Home` until renamed with ``setName(_:)``).
    public let name: String

    init(home: HomeContext) throws(HomeError) {
        self.home = home
        let stored: [UInt8]?
        do { stored = try home.records.get("structure-name", namespace: HomeContext.recordsNamespace) } catch {
            throw HomeError(error)
        }
        name = stored.map { String(decoding: $0, as: UTF8.self) } ?? "Home"
    }

    /// Renames the structure; returns it with its new name.
    public func setName(_ name: String) async throws(HomeError) -> Structure {
        guard !name.isEmpty else { throw .invalid("a structure name cannot be empty") }
        do {
            try home.records.set("structure-name", to: Array(name.utf8), namespace: HomeContext.recordsNamespace)
        } catch {
            throw HomeError(error)
        }
        return try Structure(home: home)
    }

    // MARK: Devices

    /// Every device of the structure, by ID.
    public func devices() async throws(HomeError) -> [HomeDevice] {
        try home.nodes().map(home.device)
    }

    // MARK: Rooms

    /// The rooms: those created with ``createRoom(name:)`` and those devices were put in, by name.
    public func rooms() async throws(HomeError) -> [Room] {
        var byID: [String: Room] = [:]
        do {
            for key in try home.records.keys(namespace: HomeContext.roomsNamespace) {
                if let stored = try home.records.get(key, namespace: HomeContext.roomsNamespace) {
                    let room = Room(name: String(decoding: stored, as: UTF8.self))
                    byID[room.id] = room
                }
            }
            for name in try home.store.rooms() where byID[name.lowercased()] == nil {
                byID[name.lowercased()] = Room(name: name)
            }
        } catch {
            throw HomeError(error)
        }
        return byID.values.sorted { $0.id < $1.id }
    }

    /// Creates an empty room.
    /// - Throws: `invalidArgument` for an empty name or one a room already has.
    public func createRoom(name: String) async throws(HomeError) -> Room {
        guard !name.isEmpty else { throw .invalid("a room name cannot be empty") }
        let room = Room(name: name)
        guard try await !rooms().contains(where: { $0.id == room.id }) else {
            throw .invalid("there is already a room named \"\(name)\"")
        }
        do { try home.records.set(room.id, to: Array(name.utf8), namespace: HomeContext.roomsNamespace) } catch {
            throw HomeError(error)
        }
        return room
    }

    /// Deletes a room; its devices are then in no room.
    /// - Throws: `invalidArgument` when there is no such room.
    public func deleteRoom(_ room: Room) async throws(HomeError) {
        guard try await rooms().contains(where: { $0.id == room.id }) else {
            throw .invalid("there is no room named \"\(room.name)\"")
        }
        do {
            _ = try home.records.remove(room.id, namespace: HomeContext.roomsNamespace)
            for node in try home.store.nodes(inRoom: room.name) { try home.store.setRoom(node.nodeID, to: nil) }
        } catch {
            throw HomeError(error)
        }
    }

    /// Puts `device` in `room` (nil: in none).
    public func move(_ device: HomeDevice, to room: Room?) async throws(HomeError) {
        do { try home.store.setRoom(device.nodeID, to: room?.name) } catch { throw HomeError(error) }
    }
}
