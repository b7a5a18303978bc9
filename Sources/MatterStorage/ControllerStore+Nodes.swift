package import MatterCore

extension ControllerStore {
    /// Stores a newly commissioned node.
    /// - Throws: `nodeAlreadyExists`, `nameAlreadyUsed`, or `invalidArgument` (a non-operational node ID,
    ///   an empty name or room).
    package func addNode(_ node: ControllerNode) throws(StorageError) {
        try Self.validate(node)
        try database.transaction { connection throws(StorageError) in
            guard try !Self.nodeExists(node.nodeID, connection) else { throw .nodeAlreadyExists(node.nodeID) }
            if let name = node.name { try Self.requireNameFree(name, connection) }
            try connection.execute(
                "INSERT INTO nodes (\(Self.nodeColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                Self.bindings(node))
        }
    }

    /// Replaces every field of a stored node with `node`'s.
    /// - Throws: `noSuchNode`, `nameAlreadyUsed`, or `invalidArgument`.
    package func updateNode(_ node: ControllerNode) throws(StorageError) {
        try Self.validate(node)
        try database.transaction { connection throws(StorageError) in
            try Self.requireNode(node.nodeID, connection)
            if let name = node.name { try Self.requireNameFree(name, exceptNode: node.nodeID, connection) }
            try connection.execute(
                """
                UPDATE nodes SET name = ?2, room = ?3, vendor_id = ?4, product_id = ?5, device_types = ?6,
                                 last_address = ?7, attestation_skipped = ?8, commissioned_at = ?9
                WHERE node_id = ?1
                """,
                Self.bindings(node))
        }
    }

    /// Forgets a node, and its group memberships with it.
    /// - Throws: `noSuchNode`.
    package func removeNode(_ nodeID: NodeID) throws(StorageError) {
        let removed = try database.withConnection { connection throws(StorageError) in
            try connection.execute("DELETE FROM nodes WHERE node_id = ?1", [.bits(nodeID.rawValue)])
        }
        guard removed > 0 else { throw .noSuchNode(nodeID) }
    }

    /// The node with this ID, or nil.
    package func node(_ nodeID: NodeID) throws(StorageError) -> ControllerNode? {
        try database.withConnection { connection throws(StorageError) in
            try connection.query(
                "SELECT \(Self.nodeColumns) FROM nodes WHERE node_id = ?1", [.bits(nodeID.rawValue)],
                row: Self.readNode
            ).first
        }
    }

    /// The node with this name (any case: full Unicode case folding), or nil.
    package func node(named name: String) throws(StorageError) -> ControllerNode? {
        let key = Self.nameKey(name)
        return try database.withConnection { connection throws(StorageError) in
            try connection.query(
                "SELECT \(Self.nodeColumns) FROM nodes WHERE name IS NOT NULL", row: Self.readNode
            ).first { $0.name.map(Self.nameKey) == key }
        }
    }

    /// Every stored node, by node ID.
    package func nodes() throws(StorageError) -> [ControllerNode] {
        try database.withConnection { connection throws(StorageError) in
            try connection.query("SELECT \(Self.nodeColumns) FROM nodes", row: Self.readNode)
        }.sorted { $0.nodeID < $1.nodeID }
    }

    /// The nodes in `room` (any ASCII case), by node ID.
    package func nodes(inRoom room: String) throws(StorageError) -> [ControllerNode] {
        try database.withConnection { connection throws(StorageError) in
            try connection.query(
                "SELECT \(Self.nodeColumns) FROM nodes WHERE room = ?1", [.text(room)], row: Self.readNode)
        }.sorted { $0.nodeID < $1.nodeID }
    }

    /// Gives a node a new name, or removes its name (nil).
    /// - Throws: `noSuchNode`, `nameAlreadyUsed`, or `invalidArgument` for an empty name.
    package func rename(_ nodeID: NodeID, to name: String?) throws(StorageError) {
        if let name { try Self.validateName(name, what: "a node name", identifier: true) }
        try database.transaction { connection throws(StorageError) in
            try Self.requireNode(nodeID, connection)
            if let name { try Self.requireNameFree(name, exceptNode: nodeID, connection) }
            try connection.execute(
                "UPDATE nodes SET name = ?2 WHERE node_id = ?1", [.bits(nodeID.rawValue), .text(name)])
        }
    }

    /// Puts a node in a room, or in none (nil).
    /// - Throws: `noSuchNode`, or `invalidArgument` for an empty room name.
    package func setRoom(_ nodeID: NodeID, to room: String?) throws(StorageError) {
        if let room { try Self.validateName(room, what: "a room name") }
        try updateColumn("room", of: nodeID, to: .text(room))
    }

    /// Records the address a node last answered on, or forgets it (nil).
    /// - Throws: `noSuchNode`.
    package func setLastAddress(_ nodeID: NodeID, to address: String?) throws(StorageError) {
        try updateColumn("last_address", of: nodeID, to: .text(address))
    }

    /// The rooms that hold at least one node, sorted without ASCII case (one spelling per room).
    package func rooms() throws(StorageError) -> [String] {
        try database.withConnection { connection throws(StorageError) in
            try connection.query("SELECT DISTINCT room FROM nodes WHERE room IS NOT NULL ORDER BY room") {
                row throws(StorageError) in try row.text(0)
            }
        }
    }

    // MARK: Rows

    static let nodeColumns =
        "node_id, name, room, vendor_id, product_id, device_types, last_address, attestation_skipped, commissioned_at"

    static func bindings(_ node: ControllerNode) -> [SQLiteValue] {
        [
            .bits(node.nodeID.rawValue), .text(node.name), .text(node.room), .integer(Int64(node.vendorID.rawValue)),
            .integer(Int64(node.productID.rawValue)), .text(NodeDeviceTypeList.encode(node.deviceTypes)),
            .text(node.lastAddress), .integer(node.attestationSkipped ? 1 : 0), .integer(node.commissionedAt),
        ]
    }

    static func readNode(_ row: borrowing SQLiteRow) throws(StorageError) -> ControllerNode {
        ControllerNode(
            nodeID: NodeID(try row.bits(0)), name: try row.optionalText(1), room: try row.optionalText(2),
            vendorID: VendorID(try row.integer(3)), productID: ProductID(try row.integer(4)),
            deviceTypes: try NodeDeviceTypeList.decode(try row.text(5)), lastAddress: try row.optionalText(6),
            attestationSkipped: try row.int64(7) != 0, commissionedAt: try row.int64(8))
    }

    static func validate(_ node: ControllerNode) throws(StorageError) {
        guard node.nodeID.isOperational else {
            throw .invalidArgument("node ID \(node.nodeID) is not an operational node ID")
        }
        if let name = node.name { try validateName(name, what: "a node name", identifier: true) }
        if let room = node.room { try validateName(room, what: "a room name") }
    }

    /// Sets one column of a node; `column` is one of this file's literals, never user input.
    private func updateColumn(_ column: StaticString, of nodeID: NodeID, to value: SQLiteValue) throws(StorageError) {
        let changed = try database.withConnection { connection throws(StorageError) in
            try connection.execute(
                "UPDATE nodes SET \(column) = ?2 WHERE node_id = ?1", [.bits(nodeID.rawValue), value])
        }
        guard changed > 0 else { throw .noSuchNode(nodeID) }
    }
}
