package import MatterCore
package import MatterInteraction

/// The node's group table, per fabric: which groups exist (with their names) and which endpoints are
/// members. The Groups servers of every endpoint share it; GroupKeyManagement's GroupTable attribute
/// reports it. The data model loads it with ``restore(fabric:entries:)`` at start and saves it from
/// ``onChange`` (under the `dm/groups` key of its store). Confined to the node's queue.
package final class GroupTable {
    /// One group of one fabric.
    package struct Entry: Hashable, Sendable {
        package var groupID: GroupID
        /// Up to 16 bytes; empty when none was given.
        package var name: String
        /// Member endpoints, ascending.
        package var endpoints: [EndpointID]

        package init(groupID: GroupID, name: String, endpoints: [EndpointID]) {
            self.groupID = groupID
            self.name = name
            self.endpoints = endpoints.sorted()
        }
    }

    /// Longest group name, bytes.
    package static let maxNameLength = 16

    private var tables: [UInt8: [Entry]] = [:]
    /// Groups one fabric may have (GroupKeyManagement.MaxGroupsPerFabric).
    package var maxGroupsPerFabric = 12
    /// Whether the fabric has a group key for the group (GroupKeyManagement's GroupKeyMap). Nil: every
    /// group has one (no GroupKeyManagement yet). AddGroup fails with UNSUPPORTED_ACCESS otherwise.
    package var keyExists: ((_ fabricIndex: UInt8, _ group: GroupID) -> Bool)?
    /// Called after a fabric's table changed.
    package var onChange: ((_ fabricIndex: UInt8) -> Void)?
    /// The data model's save of the whole table, after every change (apart from ``onChange``).
    var onSave: (() -> Void)?

    package init() {}

    /// The fabrics that have groups, ascending.
    package var fabrics: [UInt8] { tables.filter { !$0.value.isEmpty }.keys.sorted() }

    /// A fabric's groups, by ascending group ID.
    package func entries(fabric: UInt8) -> [Entry] { tables[fabric] ?? [] }

    /// The groups `endpoint` is a member of on `fabric`, ascending.
    package func groups(fabric: UInt8, endpoint: EndpointID) -> [GroupID] {
        entries(fabric: fabric).filter { $0.endpoints.contains(endpoint) }.map(\.groupID)
    }

    /// The entry of `group` on `fabric`.
    package func entry(fabric: UInt8, group: GroupID) -> Entry? { tables[fabric]?.first { $0.groupID == group } }

    /// Adds `endpoint` to `group` (creating it, or renaming it to `name`). CONSTRAINT_ERROR for group 0
    /// or a name over 16 bytes, UNSUPPORTED_ACCESS without a group key, RESOURCE_EXHAUSTED when the
    /// fabric's table is full.
    package func add(fabric: UInt8, group: GroupID, name: String, endpoint: EndpointID) throws(StatusIB) {
        guard group.rawValue != 0, name.utf8.count <= Self.maxNameLength else { throw StatusIB(.constraintError) }
        guard keyExists?(fabric, group) ?? true else { throw StatusIB(.unsupportedAccess) }
        var table = tables[fabric] ?? []
        if let index = table.firstIndex(where: { $0.groupID == group }) {
            table[index].name = name
            if !table[index].endpoints.contains(endpoint) {
                table[index].endpoints = (table[index].endpoints + [endpoint]).sorted()
            }
        } else {
            guard table.count < maxGroupsPerFabric else { throw StatusIB(.resourceExhausted) }
            table.append(Entry(groupID: group, name: name, endpoints: [endpoint]))
            table.sort { $0.groupID < $1.groupID }
        }
        tables[fabric] = table
        changed(fabric)
    }

    /// Removes `endpoint` from `group` (the group goes when its last endpoint does). CONSTRAINT_ERROR
    /// for group 0, NOT_FOUND when the endpoint is not a member.
    package func remove(fabric: UInt8, group: GroupID, endpoint: EndpointID) throws(StatusIB) {
        guard group.rawValue != 0 else { throw StatusIB(.constraintError) }
        guard var table = tables[fabric], let index = table.firstIndex(where: { $0.groupID == group }),
            table[index].endpoints.contains(endpoint)
        else { throw StatusIB(.notFound) }
        table[index].endpoints.removeAll { $0 == endpoint }
        if table[index].endpoints.isEmpty { table.remove(at: index) }
        tables[fabric] = table
        changed(fabric)
    }

    /// Removes `endpoint` from every group of `fabric`.
    package func removeAll(fabric: UInt8, endpoint: EndpointID) {
        guard var table = tables[fabric] else { return }
        for index in table.indices { table[index].endpoints.removeAll { $0 == endpoint } }
        table.removeAll { $0.endpoints.isEmpty }
        tables[fabric] = table
        changed(fabric)
    }

    /// Forgets a removed fabric's groups.
    package func removeFabric(_ fabric: UInt8) {
        guard tables.removeValue(forKey: fabric) != nil else { return }
        changed(fabric)
    }

    private func changed(_ fabric: UInt8) {
        onSave?()
        onChange?(fabric)
    }

    /// Replaces a fabric's table (loading saved state); does not call ``onChange``.
    package func restore(fabric: UInt8, entries: [Entry]) {
        tables[fabric] = entries.sorted { $0.groupID < $1.groupID }
    }
}
