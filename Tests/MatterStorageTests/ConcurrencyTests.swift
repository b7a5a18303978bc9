import Foundation
import MatterCore
import MatterTestSupport
import Synchronization
import Testing

@testable import MatterStorage

/// Several connections to one file, each on its own thread: SQLite's file locks are per connection, so
/// this exercises the same locking as several processes would.
@Suite("Concurrent connections")
struct ConcurrencyTests {
    static let threads = 20
    static let perThread = 50

    /// What the threads of one test report.
    final class Results<Value: Sendable>: Sendable {
        let values = Mutex<[Value]>([])
        let failures = Mutex<[String]>([])
    }

    /// Runs `body(index)` on `count` threads that start together, and waits for all of them.
    private func onThreads<Value: Sendable>(
        _ count: Int, _ body: @escaping @Sendable (Int) throws -> [Value]
    ) -> Results<Value> {
        let results = Results<Value>()
        let group = DispatchGroup()
        let go = DispatchSemaphore(value: 0)
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                go.wait()
                do {
                    let values = try body(index)
                    results.values.withLock { $0 += values }
                } catch {
                    results.failures.withLock { $0.append("thread \(index): \(error)") }
                }
            }
            thread.start()
        }
        for _ in 0..<count { go.signal() }
        group.wait()
        return results
    }

    @Test("20 connections opening a new file at once agree on its schema and on one fabric")
    func concurrentFirstOpen() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("state/controller.db")
        let results = onThreads(Self.threads) { index in
            let store = try ControllerStore(path: path)
            let fabric = try store.createFabricIfAbsent(sampleFabric(fabricID: UInt64(index + 1), key: UInt8(index)))
            return [fabric]
        }
        #expect(results.failures.withLock { $0 } == [])
        let fabrics = results.values.withLock { $0 }
        #expect(fabrics.count == Self.threads)
        let stored = try #require(try ControllerStore(path: path).fabric())
        #expect(fabrics.allSatisfy { $0 == stored })
        let database = try SQLiteDatabase(path: path)
        #expect(try database.withConnection { c throws(StorageError) in try c.userVersion() } == 2)
    }

    @Test("20 × 50 node-ID allocations from separate connections are unique and gap-free")
    func concurrentAllocation() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("controller.db")
        try ControllerStore(path: path).createFabric(sampleFabric(nextNodeID: 1000))
        let results = onThreads(Self.threads) { _ in
            let store = try ControllerStore(path: path)
            return try (0..<Self.perThread).map { _ in try store.allocateNodeID().rawValue }
        }
        #expect(results.failures.withLock { $0 } == [])
        let total = UInt64(Self.threads * Self.perThread)
        let ids = results.values.withLock { $0 }.sorted()
        #expect(ids == Array(1000..<(1000 + total)))
        #expect(try ControllerStore(path: path).fabric()?.nextNodeID == NodeID(1000 + total))
    }

    @Test("20 × 50 read-modify-write batches from separate connections lose no update")
    func concurrentReadModifyWrite() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("fleet.db")
        _ = try KeyValueStore(path: path)
        let results = onThreads(Self.threads) { index in
            let store = try KeyValueStore(path: path)
            for _ in 0..<Self.perThread {
                try store.write { tx in
                    let old = try tx.get("counter", namespace: "fleet").map(decode) ?? 0
                    try tx.set("counter", to: encode(old + 1), namespace: "fleet")
                    // Each thread's own namespace too: namespaces do not interfere.
                    let mine = try tx.get("counter", namespace: "device-\(index)").map(decode) ?? 0
                    try tx.set("counter", to: encode(mine + 1), namespace: "device-\(index)")
                }
            }
            return [Int]()
        }
        #expect(results.failures.withLock { $0 } == [])
        let store = try KeyValueStore(path: path)
        #expect(try store.get("counter", namespace: "fleet").map(decode) == UInt64(Self.threads * Self.perThread))
        for index in 0..<Self.threads {
            #expect(try store.get("counter", namespace: "device-\(index)").map(decode) == UInt64(Self.perThread))
        }
    }

    @Test("one SQLiteDatabase shared by 20 threads serializes them on its mutex")
    func sharedConnection() throws {
        let directory = try TemporaryDirectory()
        let store = try ControllerStore(path: directory.file("shared.db"))
        try store.createFabric(sampleFabric(nextNodeID: 1))
        let results = onThreads(Self.threads) { _ in
            try (0..<Self.perThread).map { _ in try store.allocateNodeID().rawValue }
        }
        #expect(results.failures.withLock { $0 } == [])
        #expect(results.values.withLock { $0 }.sorted() == Array(1...UInt64(Self.threads * Self.perThread)))
    }
}

private func encode(_ value: UInt64) -> [UInt8] {
    var writer = ByteWriter()
    writer.writeLE(value)
    return writer.bytes
}

private func decode(_ bytes: [UInt8]) throws -> UInt64 {
    var reader = ByteReader(bytes)
    return try reader.readLE(UInt64.self)
}
