import MatterController
import MatterCore
import MatterStorage

/// The one structure of a home (a state directory holds one fabric): its name, rooms, devices and
/// device groups, and the commissioning lifecycle.
public struct Structure: Sendable, Identifiable, Hashable {
    let home: HomeContext
    /// The ID of the one structure of a state directory.
    static let defaultID = "default"
    /// The structure's ID (one structure per state directory: always `default`).
    public let id = Structure.defaultID
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

    /// Every device of the structure.
    public func devices() -> Query<HomeDevice> {
        let home = self.home
        return Query(home: home) { () throws(HomeError) in Set(try home.nodes().map(home.device)) }
    }

    // MARK: Rooms

    /// The rooms: those created with ``createRoom(name:)`` (or `matter-emu rooms create`) and those
    /// devices were put in, by name.
    public func rooms() -> Query<Room> {
        let home = self.home
        return Query(home: home) { () throws(HomeError) in Set(try home.rooms.rooms()) }
    }

    /// Creates an empty room.
    /// - Throws: `invalidArgument` for an empty name or one a room already has.
    public func createRoom(name: String) async throws(HomeError) -> Room { try home.rooms.create(name) }

    /// Deletes a room; its devices are then in no room.
    /// - Throws: `invalidArgument` when there is no such room.
    public func deleteRoom(_ room: Room) async throws(HomeError) { try home.rooms.delete(room.name) }

    /// Deletes the room with ID `id`; its devices are then in no room.
    /// - Throws: `notFound` when there is no such room.
    public func deleteRoom(id: String) async throws(HomeError) {
        guard let room = try await rooms().list().first(where: { $0.id == id }) else {
            throw .invalid("there is no room with ID \"\(id)\"", code: .notFound)
        }
        try await deleteRoom(room)
    }

    /// Puts `device` in `room` (nil: in none).
    /// - Throws: `notFound` for a room this structure no longer has (deleted since it was listed).
    public func move(_ device: HomeDevice, to room: Room?) async throws(HomeError) {
        if let room, try await !rooms().list().contains(where: { $0.id == room.id }) {
            throw .invalid("there is no room \"\(room.name)\" (deleted?)", code: .notFound)
        }
        do { try home.store.setRoom(device.nodeID, to: room?.name) } catch { throw HomeError(error) }
    }

    /// Puts `device` in `room` (the Home API's form).
    public func move(device: HomeDevice, to room: Room) async throws(HomeError) {
        try await move(device, to: Optional(room))
    }

    /// Puts the device with ID `deviceID` in the room with ID `roomID`.
    /// - Throws: `notFound` for a device or room this structure does not have.
    public func move(device deviceID: String, to roomID: String) async throws(HomeError) {
        guard let device = try await devices().list().first(where: { $0.id == deviceID }) else {
            throw .invalid("there is no device with ID \"\(deviceID)\"", code: .notFound)
        }
        guard let room = try await rooms().list().first(where: { $0.id == roomID }) else {
            throw .invalid("there is no room with ID \"\(roomID)\"", code: .notFound)
        }
        try await move(device, to: room)
    }

    public static func == (a: Structure, b: Structure) -> Bool { a.id == b.id && a.name == b.name }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(name)
    }
}
