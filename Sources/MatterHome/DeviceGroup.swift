import MatterCore
import MatterStorage

/// A named set of devices controlled as one (stored as a controller group, the CLI's `group`).
///
/// Its part of a device type (``part(_:)``) is present when a member has that device type; a trait
/// command on it goes to every member that accepts the command, whatever its device type (the others
/// are skipped), completes when all answered, and throws only when every member it went to failed.
/// Dynamic state (`onOff`, `currentLevel`) is not populated on a group part; supported commands and
/// capability attributes (`colorTempPhysicalMinMireds`/`MaxMireds`: the range every member reaches)
/// are. No trait command here returns a value; to see each member's result, use the members.
public struct DeviceGroup: Sendable, Identifiable, HasParts {
    let home: HomeContext
    let stored: ControllerGroup

    /// The group's ID: its name in lower case.
    public var id: String { stored.name.lowercased() }
    /// The group's name.
    public var name: String { stored.name }

    /// The member devices, by ID.
    public func devices() async throws(HomeError) -> [HomeDevice] {
        var seen = Set<NodeID>()
        var devices: [HomeDevice] = []
        for member in stored.members where seen.insert(member.nodeID).inserted {
            if let node = try home.node(member.nodeID) { devices.append(home.device(node)) }
        }
        return devices
    }

    private var members: [PartMember] {
        stored.members.map { PartMember(live: home.liveDevice($0.nodeID), endpoint: $0.endpoint) }
    }

    /// The group's part of device type `type` when a member has it on its member endpoint, else nil.
    public func part<T: DeviceType>(_ type: T.Type) async -> T? {
        let members = members
        for member in members { await member.live.waitUntilSettled() }
        let wanted = DeviceTypeID(T.matterDeviceTypeID)
        var nodes: [NodeID: ControllerNode] = [:]
        let hasType = members.contains { member in
            let reported = member.live.deviceTypes()
            if !reported.isEmpty {
                return reported.contains { $0.endpoint == member.endpoint && $0.deviceType == wanted }
            }
            if nodes[member.live.nodeID] == nil, let node = try? home.node(member.live.nodeID) {
                nodes[member.live.nodeID] = node
            }
            return nodes[member.live.nodeID]?.deviceTypes.contains {
                $0.endpoint == member.endpoint && $0.deviceType == wanted
            } ?? false
        }
        guard hasType else { return nil }
        return T(part: DevicePart(home: home, members: members, group: stored.name))
    }

    /// The group's top-level parts of device type `type`: one (the group's part) or none.
    public func parts<T: DeviceType>(_ type: T.Type) async throws(HomeError) -> [T] {
        await part(type).map { [$0] } ?? []
    }
}
