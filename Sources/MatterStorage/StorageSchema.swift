/// The tables of a store file. Every file this module opens gets the same schema, by one linear
/// history of migrations keyed by `PRAGMA user_version`, whichever store (`KeyValueStore`,
/// `ControllerStore`, or both on one `SQLiteDatabase`) opens it first. A device's file therefore also
/// carries the controller's tables, empty (a few pages); in exchange one `user_version` describes the
/// whole file and a controller may keep its own key/value settings beside its fabric.
///
/// Append new steps at the end; never edit a released one.
enum StorageSchema {
    static let migrations: [SQLiteMigration] = [keyValue, controller]

    /// Version 1: namespaced key/value pairs.
    static let keyValue = SQLiteMigration(
        version: 1,
        sql: """
            CREATE TABLE key_value (
                namespace TEXT NOT NULL,
                key TEXT NOT NULL,
                value BLOB NOT NULL,
                PRIMARY KEY (namespace, key)
            ) STRICT, WITHOUT ROWID;
            """)

    /// Version 2: the controller's fabric (one row), nodes, groups and group members.
    /// 64-bit IDs are stored by bit pattern (`SQLiteValue.bits`). Names and rooms compare without
    /// ASCII case. `"groups"` is quoted because GROUPS is an SQL keyword (window frames).
    static let controller = SQLiteMigration(
        version: 2,
        sql: """
            CREATE TABLE fabric (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                fabric_id INTEGER NOT NULL,
                root_ca_key BLOB NOT NULL,
                root_certificate BLOB NOT NULL,
                ipk_epoch_key BLOB NOT NULL,
                controller_node_id INTEGER NOT NULL,
                next_node_id INTEGER NOT NULL,
                vendor_id INTEGER NOT NULL,
                created_at INTEGER NOT NULL
            ) STRICT;
            CREATE TABLE nodes (
                node_id INTEGER PRIMARY KEY,
                name TEXT COLLATE NOCASE UNIQUE,
                room TEXT COLLATE NOCASE,
                vendor_id INTEGER NOT NULL,
                product_id INTEGER NOT NULL,
                device_types TEXT NOT NULL DEFAULT '[]',
                last_address TEXT,
                attestation_skipped INTEGER NOT NULL DEFAULT 0 CHECK (attestation_skipped IN (0, 1)),
                commissioned_at INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX nodes_by_room ON nodes (room);
            CREATE TABLE "groups" (
                name TEXT COLLATE NOCASE PRIMARY KEY
            ) STRICT;
            CREATE TABLE group_members (
                group_name TEXT NOT NULL COLLATE NOCASE
                    REFERENCES "groups" (name) ON DELETE CASCADE ON UPDATE CASCADE,
                node_id INTEGER NOT NULL REFERENCES nodes (node_id) ON DELETE CASCADE,
                endpoint INTEGER NOT NULL,
                PRIMARY KEY (group_name, node_id, endpoint)
            ) STRICT;
            CREATE INDEX group_members_by_node ON group_members (node_id);
            """)
}
