import MatterStorage

/// The device's durable state in a `KeyValueStore`, under one namespace per device (a fleet shares
/// one file). Fabric, ACL and attribute writes that belong together go in one transaction, so a
/// crash leaves the old or the new state, never a mixture.
struct DevicePersistence: Sendable {
    let store: KeyValueStore
    let namespace: String

    static func fabricKey(_ index: UInt8) -> String { "fabric.\(index)" }
    static func aclKey(_ index: UInt8) -> String { "acl.\(index)" }
    static func groupKeysKey(_ index: UInt8) -> String { "groupkeys.\(index)" }

    func get(_ key: String) throws(StorageError) -> [UInt8]? { try store.get(key, namespace: namespace) }

    func set(_ key: String, _ value: [UInt8]) throws(StorageError) {
        try store.set(key, to: value, namespace: namespace)
    }

    func keys() throws(StorageError) -> [String] { try store.keys(namespace: namespace) }

    /// Writes `sets` and removes `removals` atomically.
    func commit(sets: [(String, [UInt8])], removals: [String] = []) throws {
        let namespace = self.namespace
        try store.write { tx in
            for (key, value) in sets { try tx.set(key, to: value, namespace: namespace) }
            for key in removals { _ = try tx.remove(key, namespace: namespace) }
        }
    }

    /// Forgets everything of this device (factory reset).
    func wipe() throws(StorageError) { _ = try store.removeAll(namespace: namespace) }
}
