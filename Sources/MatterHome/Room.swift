/// A room of a ``Structure``: a name devices are put under. Names compare without ASCII case.
public struct Room: Sendable, Hashable, Identifiable {
    /// The room's ID: its name in lower case.
    public let id: String
    /// The room's name as first written.
    public let name: String
    /// The ID of the structure the room is in (a state directory holds one).
    public let structureID: String = Structure.defaultID

    init(name: String) {
        self.id = name.lowercased()
        self.name = name
    }
}
