import MatterCore
import MatterTestSupport
import Testing

@testable import MatterStorage

@Suite("KeyValueStore")
struct KeyValueStoreTests {
    @Test("set, get, overwrite, remove, keys")
    func basics() throws {
        let store = try KeyValueStore(database: .inMemory())
        #expect(try store.get("missing", namespace: "n") == nil)
        try store.set("b", to: [1, 2, 3], namespace: "n")
        try store.set("a", to: [], namespace: "n")
        #expect(try store.get("b", namespace: "n") == [1, 2, 3])
        #expect(try store.get("a", namespace: "n") == [])
        try store.set("b", to: [9], namespace: "n")
        #expect(try store.get("b", namespace: "n") == [9])
        #expect(try store.keys(namespace: "n") == ["a", "b"])
        #expect(try store.remove("b", namespace: "n"))
        #expect(try !store.remove("b", namespace: "n"))
        #expect(try store.get("b", namespace: "n") == nil)
        #expect(try store.keys(namespace: "n") == ["a"])
        #expect(try store.removeAll(namespace: "n") == 1)
        #expect(try store.keys(namespace: "n") == [])
    }

    @Test("namespaces are isolated from each other")
    func namespaces() throws {
        let store = try KeyValueStore(database: .inMemory())
        try store.set("fabric", to: [1], namespace: "device-1")
        try store.set("fabric", to: [2], namespace: "device-2")
        try store.set("acl", to: [3], namespace: "device-2")
        try store.set("fabric", to: [4], namespace: "device-10")
        #expect(try store.get("fabric", namespace: "device-1") == [1])
        #expect(try store.get("fabric", namespace: "device-2") == [2])
        #expect(try store.get("acl", namespace: "device-1") == nil)
        #expect(try store.keys(namespace: "device-2") == ["acl", "fabric"])

        #expect(try store.remove("fabric", namespace: "device-2"))
        #expect(try store.get("fabric", namespace: "device-1") == [1])
        #expect(try store.removeAll(namespace: "device-1") == 1)
        #expect(try store.get("acl", namespace: "device-2") == [3])
        #expect(try store.get("fabric", namespace: "device-10") == [4])
        #expect(try store.namespaces() == ["device-10", "device-2"])
    }

    @Test("namespace prefixes select a fleet device's namespaces, with no wildcard characters")
    func prefixes() throws {
        let store = try KeyValueStore(database: .inMemory())
        for namespace in ["dev-1/fabric-1", "dev-1/attributes", "dev-10/fabric-1", "dev_1/x", "dev%1/x"] {
            try store.set("k", to: [1], namespace: namespace)
        }
        #expect(try store.namespaces(withPrefix: "dev-1/") == ["dev-1/attributes", "dev-1/fabric-1"])
        #expect(try store.namespaces(withPrefix: "dev_") == ["dev_1/x"])
        #expect(try store.removeAll(namespacesWithPrefix: "dev-1/") == 2)
        #expect(try store.namespaces() == ["dev%1/x", "dev-10/fabric-1", "dev_1/x"])
    }

    @Test("values survive closing and reopening the file")
    func persistence() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("device.db")
        try KeyValueStore(path: path).set("counter", to: [0x10, 0x27, 0, 0], namespace: "node")
        let reopened = try KeyValueStore(path: path)
        #expect(try reopened.get("counter", namespace: "node") == [0x10, 0x27, 0, 0])
        let version = try reopened.database.withConnection { connection throws(StorageError) in
            try connection.userVersion()
        }
        #expect(version == StorageSchema.migrations.count)
    }

    @Test("a batch write commits all its changes together and sees its own changes")
    func batchWrite() throws {
        let store = try KeyValueStore(database: .inMemory())
        try store.set("pending", to: [0], namespace: "fabric-1")
        let seen = try store.write { tx in
            try tx.set("fabric", to: [1], namespace: "fabric-1")
            try tx.set("noc", to: [2], namespace: "fabric-1")
            try tx.set("acl", to: [3], namespace: "fabric-1")
            #expect(try tx.remove("pending", namespace: "fabric-1"))
            #expect(try tx.get("noc", namespace: "fabric-1") == [2])
            return try tx.keys(namespace: "fabric-1")
        }
        #expect(seen == ["acl", "fabric", "noc"])
        #expect(try store.keys(namespace: "fabric-1") == ["acl", "fabric", "noc"])
    }

    @Test("a batch write that throws leaves nothing behind and rethrows its error")
    func batchRollback() throws {
        struct FailSafeExpired: Error, Equatable {}
        let store = try KeyValueStore(database: .inMemory())
        try store.set("fabric", to: [0xAA], namespace: "fabric-1")
        try store.set("other", to: [0xBB], namespace: "fabric-2")
        #expect(throws: FailSafeExpired()) {
            try store.write { tx in
                try tx.set("fabric", to: [1], namespace: "fabric-1")
                try tx.set("noc", to: [2], namespace: "fabric-1")
                try tx.removeAll(namespace: "fabric-2")
                throw FailSafeExpired()
            }
        }
        #expect(try store.get("fabric", namespace: "fabric-1") == [0xAA])
        #expect(try store.get("noc", namespace: "fabric-1") == nil)
        #expect(try store.get("other", namespace: "fabric-2") == [0xBB])
    }

    @Test("a key/value store and a controller store can share one database")
    func sharedDatabase() throws {
        let database = try SQLiteDatabase.inMemory()
        let settings = try KeyValueStore(database: database)
        let controller = try ControllerStore(database: database)
        try controller.createFabric(sampleFabric())
        try settings.set("theme", to: Array("dark".utf8), namespace: "cli")
        #expect(try controller.fabric()?.fabricID.rawValue == 1)
        #expect(try settings.get("theme", namespace: "cli") == Array("dark".utf8))
    }
}
