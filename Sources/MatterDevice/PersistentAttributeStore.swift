import MatterDataModel
import MatterStorage

/// The data model's non-volatile attributes (StartUpOnOff, NodeLabel, levels...) in the device's
/// key/value namespace, under `attr.` keys.
final class PersistentAttributeStore: AttributeStore, Sendable {
    let persistence: DevicePersistence

    init(_ persistence: DevicePersistence) { self.persistence = persistence }

    func load(_ key: String) throws -> [UInt8]? { try persistence.get("attr." + key) }

    func save(_ key: String, _ value: [UInt8]?) throws {
        if let value {
            try persistence.set("attr." + key, value)
        } else {
            try persistence.commit(sets: [], removals: ["attr." + key])
        }
    }
}
