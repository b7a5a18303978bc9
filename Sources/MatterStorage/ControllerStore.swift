package import MatterCore

#if canImport(Glibc)
    import Glibc
#endif

/// What a controller remembers between runs: its fabric (root CA key and certificate, IPK, its own
/// node ID and the node-ID counter), the nodes it commissioned (names, rooms, vendor and product,
/// device types, last address), and groups of node endpoints.
///
/// Several `matter-emu` processes may use one file at once: each change is one write transaction, so
/// they serialize (`allocateNodeID()` never hands the same ID to two processes, and leaves no gaps).
/// Names of nodes and groups share one name space (a group stands where a node would on the command
/// line) and compare with full Unicode case folding (rooms without ASCII case). Calls block the
/// calling thread briefly (see `SQLiteDatabase`).
///
/// The tables live in the same schema history as `KeyValueStore`'s (see `StorageSchema`), so one
/// `SQLiteDatabase` may serve both.
public struct ControllerStore: Sendable {
    /// The database this store reads and writes.
    package let database: SQLiteDatabase
    /// The file the store opened (nil for an in-memory database), for ``checkFileUnchanged()``.
    package let fileIdentity: StoreFileIdentity?

    /// A store over `database`, creating or upgrading the file's tables if needed.
    package init(database: SQLiteDatabase) throws(StorageError) {
        try database.migrate(StorageSchema.migrations)
        self.database = database
        fileIdentity = database.path == ":memory:" ? nil : try StoreFileIdentity.current(path: database.path)
    }

    /// A store over the SQLite file at `path` (created with mode 0600, parents with 0700).
    ///
    /// - Throws: `emptyStoreFile` when `path` is an existing empty file (a missing file is a new
    ///   store; an empty one is a store that lost its contents). A file that another process has just
    ///   created and is initialising is waited for (briefly) first.
    public init(path: String) throws(StorageError) {
        try Self.refuseEmptyFile(path)
        try self.init(database: SQLiteDatabase(path: path))
    }

    /// Throws ``StorageError/storeFileChanged(path:deleted:)`` when the store's path no longer names
    /// the file the store opened (deleted, or replaced by another file): writes since went to the old
    /// file. Callers check before writes that matter and before reporting them done.
    package func checkFileUnchanged() throws(StorageError) {
        guard let fileIdentity else { return }
        let now = try StoreFileIdentity.current(path: database.path)
        guard now == fileIdentity else { throw .storeFileChanged(path: database.path, deleted: now == nil) }
    }

    /// An existing 0-byte file is refused, unless it gains content within a moment (a concurrent
    /// process between creating the file and SQLite writing its header).
    static func refuseEmptyFile(_ path: String) throws(StorageError) {
        for attempt in 0..<20 {
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size == 0 else { return }
            if attempt < 19 { usleep(10_000) }
        }
        throw .emptyStoreFile(path: path)
    }

    // MARK: Fabric

    /// The stored fabric, or nil before the first one is created.
    package func fabric() throws(StorageError) -> ControllerFabric? {
        try database.withConnection { connection throws(StorageError) in try Self.readFabric(connection) }
    }

    /// Stores the controller's fabric.
    /// - Throws: `fabricAlreadyExists` if one is stored; `invalidArgument` if `controllerNodeID` is not
    ///   an operational node ID.
    package func createFabric(_ fabric: ControllerFabric) throws(StorageError) {
        try Self.validate(fabric)
        try database.transaction { connection throws(StorageError) in
            guard try Self.readFabric(connection) == nil else { throw .fabricAlreadyExists }
            try Self.insert(fabric, connection)
        }
    }

    /// Returns the stored fabric, or stores `candidate` and returns it when there is none yet. When
    /// several processes start on a new file at once, all of them get the fabric of the first to
    /// commit (the others' candidates are dropped).
    package func createFabricIfAbsent(_ candidate: ControllerFabric) throws(StorageError) -> ControllerFabric {
        try Self.validate(candidate)
        return try database.transaction { connection throws(StorageError) in
            if let existing = try Self.readFabric(connection) { return existing }
            try Self.insert(candidate, connection)
            return candidate
        }
    }

    /// Hands out the next free operational node ID and moves the fabric's counter past it, in one write
    /// transaction (safe across threads and processes). IDs already used by a stored node or by the
    /// controller itself are skipped.
    /// - Throws: `noFabric` before a fabric is created; `nodeIDsExhausted` past the operational range.
    package func allocateNodeID() throws(StorageError) -> NodeID {
        try database.transaction { connection throws(StorageError) in
            let counters = try connection.query(
                "SELECT next_node_id, controller_node_id FROM fabric WHERE id = 1"
            ) { row throws(StorageError) in (next: try row.bits(0), controller: try row.bits(1)) }
            guard let counters = counters.first else { throw .noFabric }
            var candidate = max(counters.next, 1)
            while true {
                guard NodeID(candidate).isOperational else { throw .nodeIDsExhausted }
                if candidate != counters.controller, try !Self.nodeExists(NodeID(candidate), connection) { break }
                candidate += 1
            }
            try connection.execute("UPDATE fabric SET next_node_id = ?1 WHERE id = 1", [.bits(candidate + 1)])
            return NodeID(candidate)
        }
    }

    // MARK: Helpers shared by the extensions

    static func validate(_ fabric: ControllerFabric) throws(StorageError) {
        guard fabric.controllerNodeID.isOperational else {
            throw .invalidArgument("controller node ID \(fabric.controllerNodeID) is not an operational node ID")
        }
    }

    static func readFabric(_ connection: borrowing SQLiteConnection) throws(StorageError) -> ControllerFabric? {
        try connection.query(
            """
            SELECT fabric_id, root_ca_key, root_certificate, ipk_epoch_key, controller_node_id, next_node_id,
                   vendor_id, created_at
            FROM fabric WHERE id = 1
            """
        ) { row throws(StorageError) in
            ControllerFabric(
                fabricID: FabricID(try row.bits(0)), rootCAPrivateKey: try row.blob(1),
                rootCertificate: try row.blob(2), ipkEpochKey: try row.blob(3),
                controllerNodeID: NodeID(try row.bits(4)), nextNodeID: NodeID(try row.bits(5)),
                vendorID: VendorID(try row.integer(6)), createdAt: try row.int64(7))
        }.first
    }

    static func insert(_ fabric: ControllerFabric, _ connection: borrowing SQLiteConnection) throws(StorageError) {
        try connection.execute(
            """
            INSERT INTO fabric (id, fabric_id, root_ca_key, root_certificate, ipk_epoch_key, controller_node_id,
                                next_node_id, vendor_id, created_at)
            VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """,
            [
                .bits(fabric.fabricID.rawValue), .blob(fabric.rootCAPrivateKey), .blob(fabric.rootCertificate),
                .blob(fabric.ipkEpochKey), .bits(fabric.controllerNodeID.rawValue),
                .bits(fabric.nextNodeID.rawValue), .integer(Int64(fabric.vendorID.rawValue)),
                .integer(fabric.createdAt),
            ])
    }

    static func nodeExists(_ nodeID: NodeID, _ connection: borrowing SQLiteConnection) throws(StorageError) -> Bool {
        try !connection.query("SELECT 1 FROM nodes WHERE node_id = ?1", [.bits(nodeID.rawValue)]) { _ in () }.isEmpty
    }

    /// Throws `noSuchNode` unless the node is stored.
    static func requireNode(_ nodeID: NodeID, _ connection: borrowing SQLiteConnection) throws(StorageError) {
        guard try nodeExists(nodeID, connection) else { throw .noSuchNode(nodeID) }
    }

    /// A name must have something besides white space.
    static func validateName(_ name: String, what: String, identifier: Bool = false) throws(StorageError) {
        guard name.contains(where: { !$0.isWhitespace }) else { throw .invalidArgument("\(what) cannot be empty") }
        if let problem = NameCharacters.problem(in: name) { throw .invalidArgument("\(what) \(problem)") }
        if identifier, Self.readsAsNodeID(name) {
            throw .invalidArgument("\(what) cannot be a number (it would read as a node ID)")
        }
    }

    /// Checks a name for a node or a group: not empty, no control characters, not a number (decimal
    /// or 0x hex, which the command line reads as a node ID).
    /// - Throws: `invalidArgument` saying why.
    package static func validateNodeOrGroupName(_ name: String) throws(StorageError) {
        try validateName(name, what: "a name", identifier: true)
    }

    /// True for what the command line takes as a node ID: decimal digits, or 0x and hex digits.
    static func readsAsNodeID(_ text: String) -> Bool {
        let lower = text.lowercased()
        let digits = lower.hasPrefix("0x") ? lower.dropFirst(2) : Substring(lower)
        let radix = lower.hasPrefix("0x") ? 16 : 10
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isHexDigit && (radix == 16 || $0.isNumber) }
    }

    /// The form names are compared in: full Unicode case folding (lower, upper, lower again: "ß",
    /// "SS" and "ẞ" all become "ss", "ς" and "Σ" become "σ"), compared by canonical equivalence.
    static func nameKey(_ name: String) -> String { name.lowercased().uppercased().lowercased() }

    /// Throws `nameAlreadyUsed` if a group, or a node other than `node`, has this name (compared by
    /// ``nameKey(_:)``).
    static func requireNameFree(
        _ name: String, exceptNode node: NodeID? = nil, _ connection: borrowing SQLiteConnection
    ) throws(StorageError) {
        let key = nameKey(name)
        let nodes = try connection.query("SELECT node_id, name FROM nodes WHERE name IS NOT NULL") {
            row throws(StorageError) in (NodeID(try row.bits(0)), try row.text(1))
        }
        let groups = try connection.query("SELECT name FROM \"groups\"") { row throws(StorageError) in
            try row.text(0)
        }
        let nodeTaken = nodes.contains { $0.0 != node && nameKey($0.1) == key }
        let groupTaken = groups.contains { nameKey($0) == key }
        guard !nodeTaken, !groupTaken else { throw .nameAlreadyUsed(name) }
    }

    /// The stored spelling of the group named `name` (compared by ``nameKey(_:)``), or nil.
    static func storedGroupName(_ name: String, _ connection: borrowing SQLiteConnection) throws(StorageError)
        -> String?
    {
        let key = nameKey(name)
        return try connection.query("SELECT name FROM \"groups\"") { row throws(StorageError) in try row.text(0) }
            .first { nameKey($0) == key }
    }
}
