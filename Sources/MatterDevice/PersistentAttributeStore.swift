import Dispatch
import MatterCore
import MatterDataModel
import MatterStorage
import Synchronization

/// The data model's non-volatile attributes (StartUpOnOff, NodeLabel, levels...) in the device's
/// key/value namespace, under `attr.` keys.
///
/// Attribute values (``saveSoon(_:_:)``) are written behind: the caller, on the node's queue,
/// answers its Toggle without waiting for SQLite; a writer queue commits whatever accumulated in
/// one transaction (64 Toggles in flight cost one commit, not 64). `load` sees pending values at
/// once. Durable saves (``save(_:_:)``: tables, event-number reservations) and ``flush()`` go
/// through the same writer queue, so a later value never loses to an earlier one.
final class PersistentAttributeStore: AttributeStore, Sendable {
    /// Values not yet committed: `waiting` for the writer, `writing` in its current transaction.
    /// A nil value is a removal.
    private struct Pending {
        var waiting: [String: [UInt8]?] = [:]
        var writing: [String: [UInt8]?] = [:]
        var scheduled = false
    }

    let persistence: DevicePersistence
    private let pending = Mutex(Pending())
    private let writer = DispatchQueue(label: "matter-emu.attribute-writer")
    private let log = Logger(label: "device")

    init(_ persistence: DevicePersistence) { self.persistence = persistence }

    func load(_ key: String) throws -> [UInt8]? {
        let unwritten: [UInt8]?? = pending.withLock { state in
            if let value = state.waiting[key] { return .some(value) }
            if let value = state.writing[key] { return .some(value) }
            return .none
        }
        if let unwritten { return unwritten }
        return try persistence.get("attr." + key)
    }

    func save(_ key: String, _ value: [UInt8]?) throws {
        try writer.sync {
            let waiting = take()
            do {
                try commit(waiting.merging([key: value]) { _, new in new })
                pending.withLock { $0.writing = [:] }
            } catch {
                putBack(waiting)
                throw error
            }
        }
    }

    func saveSoon(_ key: String, _ value: [UInt8]?) throws {
        let schedule = pending.withLock { state in
            state.waiting[key] = .some(value)
            defer { state.scheduled = true }
            return !state.scheduled
        }
        if schedule { writer.async { self.writeWaiting() } }
    }

    func flush() { writer.sync { writeWaiting() } }

    /// On the writer queue: moves the waiting values to `writing` and returns them.
    private func take() -> [String: [UInt8]?] {
        pending.withLock { state in
            state.writing = state.waiting
            state.waiting = [:]
            state.scheduled = false
            return state.writing
        }
    }

    /// On the writer queue: after a failed commit, `batch` waits again (under newer values), for
    /// the next write to try.
    private func putBack(_ batch: [String: [UInt8]?]) {
        pending.withLock { state in
            state.waiting.merge(batch) { newer, _ in newer }
            state.writing = [:]
        }
    }

    /// On the writer queue: commits what is waiting; a failure is logged and the values wait for
    /// the next write.
    private func writeWaiting() {
        let batch = take()
        guard !batch.isEmpty else { return }
        do {
            try commit(batch)
            pending.withLock { $0.writing = [:] }
        } catch {
            putBack(batch)
            log.warning("could not store \(batch.count) attribute value(s), will retry with the next change: \(error)")
        }
    }

    private func commit(_ batch: [String: [UInt8]?]) throws {
        var sets: [(String, [UInt8])] = []
        var removals: [String] = []
        for (key, value) in batch.sorted(by: { $0.key < $1.key }) {
            if let value { sets.append(("attr." + key, value)) } else { removals.append("attr." + key) }
        }
        try persistence.commit(sets: sets, removals: removals)
    }
}
