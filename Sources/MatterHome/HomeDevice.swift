import MatterCore
import MatterStorage

/// A commissioned device: its ID, name and room from the store, and its device types, whose traits
/// hold the device's live state.
public struct HomeDevice: Sendable, Identifiable {
    /// The device's ID: its operational node ID in decimal (the CLI's `<node-id>`).
    public let id: String
    /// The name the device was given, else `Matter device <id>`.
    public let name: String
    /// The room the device is in, if any.
    public let room: Room?
    /// The device's device types (``DeviceTypes/get(_:)``), and a sequence of its state changes.
    public let types: DeviceTypes
    let nodeID: NodeID
    let endpoints: [EndpointID]

    init(node: ControllerNode, live: LiveDevice, home: HomeContext) {
        nodeID = node.nodeID
        id = Self.id(of: node.nodeID)
        name = node.name ?? "Matter device \(node.nodeID.rawValue)"
        room = node.room.map(Room.init(name:))
        types = DeviceTypes(live: live, home: home, stored: node.deviceTypes)
        let application = Set(node.deviceTypes.map(\.endpoint)).filter { $0 != .root }.sorted()
        endpoints = application.isEmpty ? [EndpointID(1)] : application
    }

    static func id(of nodeID: NodeID) -> String { String(nodeID.rawValue) }
}
