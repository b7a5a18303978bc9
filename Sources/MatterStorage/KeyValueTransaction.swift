/// The store as seen inside `KeyValueStore.write`: the same operations, all in the enclosing
/// transaction (reads see its uncommitted changes). It cannot outlive the closure it was passed to.
package struct KeyValueTransaction: ~Copyable {
    let connection: SQLiteConnection

    /// The value stored under `key` in `namespace` (including this transaction's changes), or nil.
    package func get(_ key: String, namespace: String) throws(StorageError) -> [UInt8]? {
        try KeyValueTable.get(key, namespace: namespace, connection)
    }

    /// Stores `value` under `key` in `namespace`, replacing any previous value.
    package func set(_ key: String, to value: [UInt8], namespace: String) throws(StorageError) {
        try KeyValueTable.set(key, to: value, namespace: namespace, connection)
    }

    /// Removes `key` from `namespace`; returns false if it was not there.
    @discardableResult
    package func remove(_ key: String, namespace: String) throws(StorageError) -> Bool {
        try KeyValueTable.remove(key, namespace: namespace, connection)
    }

    /// Removes every key of `namespace`; returns how many there were.
    @discardableResult
    package func removeAll(namespace: String) throws(StorageError) -> Int {
        try KeyValueTable.removeAll(namespace: namespace, connection)
    }

    /// The keys of `namespace`, sorted by their UTF-8 bytes.
    package func keys(namespace: String) throws(StorageError) -> [String] {
        try KeyValueTable.keys(namespace: namespace, connection)
    }
}

/// The SQL behind `KeyValueStore` and `KeyValueTransaction`.
enum KeyValueTable {
    static func get(_ key: String, namespace: String, _ connection: borrowing SQLiteConnection)
        throws(StorageError) -> [UInt8]?
    {
        try connection.query(
            "SELECT value FROM key_value WHERE namespace = ?1 AND key = ?2", [.text(namespace), .text(key)]
        ) { row throws(StorageError) in try row.blob(0) }.first
    }

    static func set(_ key: String, to value: [UInt8], namespace: String, _ connection: borrowing SQLiteConnection)
        throws(StorageError)
    {
        try connection.execute(
            "INSERT INTO key_value (namespace, key, value) VALUES (?1, ?2, ?3) "
                + "ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value",
            [.text(namespace), .text(key), .blob(value)])
    }

    static func remove(_ key: String, namespace: String, _ connection: borrowing SQLiteConnection)
        throws(StorageError) -> Bool
    {
        try connection.execute(
            "DELETE FROM key_value WHERE namespace = ?1 AND key = ?2", [.text(namespace), .text(key)]) > 0
    }

    static func removeAll(namespace: String, _ connection: borrowing SQLiteConnection) throws(StorageError) -> Int {
        try connection.execute("DELETE FROM key_value WHERE namespace = ?1", [.text(namespace)])
    }

    static func removeAll(namespacesWithPrefix prefix: String, _ connection: borrowing SQLiteConnection)
        throws(StorageError) -> Int
    {
        // substr/length count characters on both sides; LIKE would need its wildcards escaped.
        try connection.execute(
            "DELETE FROM key_value WHERE substr(namespace, 1, length(?1)) = ?1", [.text(prefix)])
    }

    static func keys(namespace: String, _ connection: borrowing SQLiteConnection) throws(StorageError) -> [String] {
        try connection.query("SELECT key FROM key_value WHERE namespace = ?1 ORDER BY key", [.text(namespace)]) {
            row throws(StorageError) in try row.text(0)
        }
    }

    static func namespaces(withPrefix prefix: String, _ connection: borrowing SQLiteConnection)
        throws(StorageError) -> [String]
    {
        try connection.query(
            "SELECT DISTINCT namespace FROM key_value WHERE substr(namespace, 1, length(?1)) = ?1 ORDER BY namespace",
            [.text(prefix)]
        ) { row throws(StorageError) in try row.text(0) }
    }
}
