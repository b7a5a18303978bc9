package import MatterCore

extension ControllerStore {
    /// Creates an empty group.
    /// - Throws: `nameAlreadyUsed` if a group or a node has this name; `invalidArgument` if it is empty.
    package func createGroup(_ name: String) throws(StorageError) {
        try Self.validateName(name, what: "a group name", identifier: true)
        try database.transaction { connection throws(StorageError) in
            try Self.requireNameFree(name, connection)
            try connection.execute("INSERT INTO \"groups\" (name) VALUES (?1)", [.text(name)])
        }
    }

    /// Deletes a group and its memberships (the nodes stay).
    /// - Throws: `noSuchGroup`.
    package func deleteGroup(_ name: String) throws(StorageError) {
        let removed = try database.transaction { connection throws(StorageError) in
            guard let stored = try Self.storedGroupName(name, connection) else { return 0 }
            return try connection.execute("DELETE FROM \"groups\" WHERE name = ?1", [.text(stored)])
        }
        guard removed > 0 else { throw .noSuchGroup(name) }
    }

    /// Adds an endpoint of a node to a group (nothing happens if it is already a member).
    /// - Throws: `noSuchGroup`, `noSuchNode`.
    package func addToGroup(_ name: String, nodeID: NodeID, endpoint: EndpointID) throws(StorageError) {
        try database.transaction { connection throws(StorageError) in
            let group = try Self.requireGroup(name, connection)
            try Self.requireNode(nodeID, connection)
            try connection.execute(
                "INSERT OR IGNORE INTO group_members (group_name, node_id, endpoint) VALUES (?1, ?2, ?3)",
                [.text(group), .bits(nodeID.rawValue), .integer(Int64(endpoint.rawValue))])
        }
    }

    /// Removes a node's endpoint from a group, or all its endpoints when `endpoint` is nil. Returns
    /// false if there was no such membership.
    /// - Throws: `noSuchGroup`.
    @discardableResult
    package func removeFromGroup(_ name: String, nodeID: NodeID, endpoint: EndpointID? = nil) throws(StorageError)
        -> Bool
    {
        try database.transaction { connection throws(StorageError) in
            let group = try Self.requireGroup(name, connection)
            let endpointValue: SQLiteValue = endpoint.map { .integer(Int64($0.rawValue)) } ?? .null
            return try connection.execute(
                "DELETE FROM group_members WHERE group_name = ?1 AND node_id = ?2 AND (?3 IS NULL OR endpoint = ?3)",
                [.text(group), .bits(nodeID.rawValue), endpointValue]) > 0
        }
    }

    /// The group with this name (any case: full Unicode case folding) and its members, or nil.
    package func group(named name: String) throws(StorageError) -> ControllerGroup? {
        try groups(matching: name).first
    }

    /// Every group with its members, sorted by name without ASCII case.
    package func groups() throws(StorageError) -> [ControllerGroup] {
        try groups(matching: nil)
    }

    /// The names of the groups a node belongs to (with any endpoint), sorted without ASCII case.
    package func groupNames(containing nodeID: NodeID) throws(StorageError) -> [String] {
        try database.withConnection { connection throws(StorageError) in
            try connection.query(
                """
                SELECT DISTINCT g.name FROM "groups" g JOIN group_members m ON m.group_name = g.name
                WHERE m.node_id = ?1 ORDER BY g.name
                """,
                [.bits(nodeID.rawValue)]
            ) { row throws(StorageError) in try row.text(0) }
        }
    }

    // MARK: Helpers

    /// The stored spelling of the group named `name` (any case: full Unicode case folding), or `noSuchGroup`.
    private static func requireGroup(_ name: String, _ connection: borrowing SQLiteConnection)
        throws(StorageError) -> String
    {
        guard let stored = try storedGroupName(name, connection) else { throw .noSuchGroup(name) }
        return stored
    }

    /// Groups (all, or the one named `name`) with their members, from one statement (one snapshot).
    private func groups(matching name: String?) throws(StorageError) -> [ControllerGroup] {
        let key = name.map(Self.nameKey)
        let rows = try database.withConnection { connection throws(StorageError) in
            try connection.query(
                """
                SELECT g.name, m.node_id, m.endpoint FROM "groups" g
                LEFT JOIN group_members m ON m.group_name = g.name
                ORDER BY g.name
                """
            ) { row throws(StorageError) in
                let member =
                    row.isNull(1)
                    ? nil
                    : ControllerGroup.Member(nodeID: NodeID(try row.bits(1)), endpoint: EndpointID(try row.integer(2)))
                return (group: try row.text(0), member: member)
            }
        }
        var groups: [ControllerGroup] = []
        for row in rows where key == nil || Self.nameKey(row.group) == key {
            if groups.last?.name != row.group { groups.append(ControllerGroup(name: row.group)) }
            if let member = row.member { groups[groups.count - 1].members.append(member) }
        }
        for index in groups.indices {
            groups[index].members.sort { ($0.nodeID, $0.endpoint) < ($1.nodeID, $1.endpoint) }
        }
        return groups
    }
}
