/// A durable map from (namespace, key) to bytes, in one SQLite file.
///
/// The namespace is part of every call: a device keeps its fabrics, ACLs and persistent attributes
/// under namespaces of its own, and a fleet sharing one file gives each device a namespace prefix
/// ("device-3/fabric-1"), which `namespaces(withPrefix:)` and `removeAll(namespacesWithPrefix:)` act on.
///
/// Each single call is atomic. `write` groups several changes into one transaction, so a device can
/// commit a fabric, its NOC and its ACL together: after a crash the file holds all of them or none.
/// Calls block the calling thread briefly (see `SQLiteDatabase`).
package struct KeyValueStore: Sendable {
    /// The database this store reads and writes.
    package let database: SQLiteDatabase

    /// A store over `database`, creating or upgrading the file's tables if needed.
    package init(database: SQLiteDatabase) throws(StorageError) {
        try database.migrate(StorageSchema.migrations)
        self.database = database
    }

    /// A store over the SQLite file at `path` (created with mode 0600, parents with 0700).
    package init(path: String) throws(StorageError) {
        try self.init(database: SQLiteDatabase(path: path))
    }

    /// The value stored under `key` in `namespace`, or nil.
    package func get(_ key: String, namespace: String) throws(StorageError) -> [UInt8]? {
        try database.withConnection { connection throws(StorageError) in
            try KeyValueTable.get(key, namespace: namespace, connection)
        }
    }

    /// Stores `value` under `key` in `namespace`, replacing any previous value.
    package func set(_ key: String, to value: [UInt8], namespace: String) throws(StorageError) {
        try database.withConnection { connection throws(StorageError) in
            try KeyValueTable.set(key, to: value, namespace: namespace, connection)
        }
    }

    /// Removes `key` from `namespace`; returns false if it was not there.
    @discardableResult
    package func remove(_ key: String, namespace: String) throws(StorageError) -> Bool {
        try database.withConnection { connection throws(StorageError) in
            try KeyValueTable.remove(key, namespace: namespace, connection)
        }
    }

    /// Removes every key of `namespace`; returns how many there were.
    @discardableResult
    package func removeAll(namespace: String) throws(StorageError) -> Int {
        try database.withConnection { connection throws(StorageError) in
            try KeyValueTable.removeAll(namespace: namespace, connection)
        }
    }

    /// Removes every key of every namespace that starts with `prefix` (a fleet device's whole state);
    /// returns how many keys there were.
    @discardableResult
    package func removeAll(namespacesWithPrefix prefix: String) throws(StorageError) -> Int {
        try database.withConnection { connection throws(StorageError) in
            try KeyValueTable.removeAll(namespacesWithPrefix: prefix, connection)
        }
    }

    /// The keys of `namespace`, sorted by their UTF-8 bytes.
    package func keys(namespace: String) throws(StorageError) -> [String] {
        try database.withConnection { connection throws(StorageError) in
            try KeyValueTable.keys(namespace: namespace, connection)
        }
    }

    /// The namespaces holding at least one key and starting with `prefix`, sorted.
    package func namespaces(withPrefix prefix: String = "") throws(StorageError) -> [String] {
        try database.withConnection { connection throws(StorageError) in
            try KeyValueTable.namespaces(withPrefix: prefix, connection)
        }
    }

    /// Runs `body` in one write transaction: its changes are committed together when it returns, or
    /// none of them if it throws (its error is rethrown). Other writers, in this process or another,
    /// wait for it. `body` must not call this store or its database (it would wait for itself): use the
    /// `KeyValueTransaction` it is given, whose reads see the transaction's own changes.
    ///
    /// ```swift
    /// try store.write { tx in
    ///     try tx.set("fabric", to: fabric, namespace: ns)
    ///     try tx.set("noc", to: noc, namespace: ns)
    ///     try tx.remove("pending", namespace: ns)
    /// }
    /// ```
    /// - Throws: `StorageError` when SQLite fails (nothing is written), or whatever `body` throws.
    package func write<T: Sendable>(_ body: (borrowing KeyValueTransaction) throws -> T) throws -> T {
        try database.transactionResult { connection in
            try body(KeyValueTransaction(connection: SQLiteConnection(connection.handle)))
        }.get()
    }
}
