import MatterController
import MatterCore
import MatterStorage

/// A commissioned device: its ID, name and room from the store, its device types, whose traits hold the
/// device's live state, and whether it is reachable. Devices are equal when their ID, name and room are.
public struct HomeDevice: Sendable, Identifiable, Hashable {
    /// The device's ID: its operational node ID in decimal (the CLI's `<node-id>`).
    public let id: String
    /// The name the device was given, else `Matter device <id>`.
    public let name: String
    /// The room the device is in, if any.
    public let room: Room?
    /// The device's device types (``DeviceTypes/get(_:)``), and a sequence of its state changes.
    public let types: DeviceTypes
    /// The ID of the structure the device is in (a state directory holds one).
    public let structureID: String? = Structure.defaultID
    /// Always true: every device here is a Matter node.
    public let isMatterDevice = true
    let nodeID: NodeID
    let endpoints: [EndpointID]
    let live: LiveDevice
    let home: HomeContext

    init(node: ControllerNode, live: LiveDevice, home: HomeContext) {
        nodeID = node.nodeID
        id = Self.id(of: node.nodeID)
        name = node.name ?? "Matter device \(node.nodeID.rawValue)"
        room = node.room.map(Room.init(name:))
        types = DeviceTypes(live: live, home: home, stored: node.deviceTypes)
        let application = Set(node.deviceTypes.map(\.endpoint)).filter { $0 != .root }.sorted()
        endpoints = application.isEmpty ? [EndpointID(1)] : application
        self.live = live
        self.home = home
    }

    static func id(of nodeID: NodeID) -> String { String(nodeID.rawValue) }

    /// The ID of the room the device is in, if any.
    public var roomID: String? { room?.id }

    /// Whether the device is reachable now (from the home's live subscription to it), and from where.
    public var sourceConnectivity: SourceConnectivity {
        SourceConnectivity(connectivityState: live.connectivityState, dataSourceLocality: .local)
    }

    public static func == (a: HomeDevice, b: HomeDevice) -> Bool {
        a.id == b.id && a.name == b.name && a.roomID == b.roomID
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(name)
        hasher.combine(roomID)
    }

    // MARK: Management

    /// Renames the device (the CLI's `rename`); returns it with its new name.
    /// - Throws: `invalidArgument` for a name that is empty, a number, or another node's or group's;
    ///   `notFound` when the device is no longer in the home.
    public func setName(_ name: String) async throws(HomeError) -> HomeDevice {
        do {
            try home.store.rename(nodeID, to: name)
        } catch {
            throw HomeError(error)
        }
        guard let node = try home.node(nodeID) else { throw .invalid("device \(id) is gone", code: .notFound) }
        return home.device(node)
    }

    /// Whether the device can be decommissioned: eligible while it is in the home.
    public var decommissionEligibility: DecommissionEligibility {
        get async { ((try? home.node(nodeID)) ?? nil) == nil ? .ineligible : .eligible }
    }

    /// Decommissions the device: removes this home's fabric from it (OperationalCredentials RemoveFabric),
    /// then forgets it. A device that cannot be reached, or refuses, stays in the home (the error says why)
    /// unless `forgettingUnreachable` is true: then it is forgotten anyway (it keeps our fabric until it is
    /// reset). Returns the IDs of the devices removed.
    @discardableResult
    public func decommission(forgettingUnreachable: Bool = false) async throws(HomeError) -> Set<String> {
        guard try home.node(nodeID) != nil else { throw .invalid("device \(id) is not in the home", code: .notFound) }
        do {
            try await home.controller.unpair(nodeID, force: forgettingUnreachable)
        } catch {
            throw HomeError(error)
        }
        await home.forget(nodeID)
        return [id]
    }
}
