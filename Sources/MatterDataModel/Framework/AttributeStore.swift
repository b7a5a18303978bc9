import Synchronization

/// Durable storage for the attribute values that survive a restart (spec quality `N`: OnOff with
/// StartUpOnOff, CurrentLevel, NodeLabel, door-lock settings...): small TLV blobs by key.
///
/// Keys are `<endpoint>/<cluster>/<attribute>` in hexadecimal (`1/0006/0000`) for attribute values,
/// and a few data-model keys starting with `dm/`. A device keeps one store per node (or namespaces
/// the keys per node). The data model calls the store on the node's queue.
package protocol AttributeStore: AnyObject, Sendable {
    /// The bytes saved under `key`, or nil when there are none.
    func load(_ key: String) throws -> [UInt8]?
    /// Saves `value` under `key`; nil removes the key. Durable when it returns.
    func save(_ key: String, _ value: [UInt8]?) throws
    /// Saves `value` under `key` soon: ``load(_:)`` sees it at once, the write itself may be
    /// coalesced with others and done off the caller's thread. For attribute values on the hot
    /// path (a Toggle's OnOff); ``flush()`` waits for it. The default saves at once.
    func saveSoon(_ key: String, _ value: [UInt8]?) throws
    /// Returns when every ``saveSoon(_:_:)`` made before it is written (or failed and was logged).
    func flush()
}

extension AttributeStore {
    package func saveSoon(_ key: String, _ value: [UInt8]?) throws { try save(key, value) }

    package func flush() {}
}

/// An ``AttributeStore`` in memory: for tests and for devices that need not remember anything.
/// Keep one instance across data models to simulate a reboot.
package final class InMemoryAttributeStore: AttributeStore {
    private let values = Mutex<[String: [UInt8]]>([:])

    package init() {}

    package func load(_ key: String) -> [UInt8]? { values.withLock { $0[key] } }

    package func save(_ key: String, _ value: [UInt8]?) { values.withLock { $0[key] = value } }

    /// Every key, sorted.
    package var keys: [String] { values.withLock { $0.keys.sorted() } }
}
