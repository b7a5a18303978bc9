import MatterCore
import MatterDataModel
import MatterInteraction
import MatterSecureChannel
import MatterStorage
import MatterTLV

/// The node's fabrics and what belongs to each: its record (certificates, keys, label), its ACL
/// entries, its group keys and its CASE resumption records; durable in the device's store.
///
/// The fabric AddNOC added under the fail-safe is ``pending`` until CommissioningComplete commits it:
/// it is in the table (CASE works on it) but nothing of it is written before the commit. Confined to
/// the node's queue, like the cluster servers that share it.
final class FabricTable {
    let persistence: DevicePersistence
    let resumption: CASEResumptionStore
    let log = Logger(label: "device")
    /// Every fabric, committed or pending.
    var fabrics: [UInt8: DeviceFabric] = [:]
    /// Every fabric's ACL entries; the data model asks it for every access check.
    let accessControl = AccessControlList()
    /// Every fabric's group keys (key sets besides the IPK, GroupKeyMap).
    var groupKeys: [UInt8: FabricGroupKeys] = [:]
    /// The fabric added under the armed fail-safe, not yet committed.
    var pending: UInt8?
    /// Called when fabrics were added, changed or removed (advertising, events).
    var onChange: (() -> Void)?
    /// Called when a fabric is removed or rolled back, after its state went (hook for what else keeps
    /// per-fabric state: group tables, Leave events).
    var onRemoved: ((UInt8) -> Void)?

    init(persistence: DevicePersistence, resumption: CASEResumptionStore) throws(DeviceError) {
        self.persistence = persistence
        self.resumption = resumption
        try load()
    }

    subscript(index: UInt8) -> DeviceFabric? {
        get { fabrics[index] }
        set { fabrics[index] = newValue }
    }

    /// Every fabric, committed or pending, by index.
    var all: [DeviceFabric] { fabrics.values.sorted { $0.index < $1.index } }

    /// Committed fabrics (not the pending one).
    var committed: [DeviceFabric] { all.filter { $0.index != pending } }

    /// The lowest free fabric index, nil when `capacity` fabrics exist.
    func freeIndex(capacity: UInt8) -> UInt8? {
        guard fabrics.count < Int(capacity) else { return nil }
        return (1...UInt8(254)).first { fabrics[$0] == nil }
    }

    // MARK: Storage

    /// Reads every fabric with its ACL and group keys. A fabric is always written together with its
    /// ACL (one transaction), so a fabric found without one is a damaged store: the device refuses to
    /// start rather than serve a fabric whose administrators it cannot recognise (every command would
    /// be refused UNSUPPORTED_ACCESS).
    private func load() throws(DeviceError) {
        var aclIndices: Set<UInt8> = []
        do {
            for key in try persistence.keys() {
                if key.hasPrefix("fabric."), let bytes = try persistence.get(key) {
                    let fabric = try DeviceFabric(decoding: bytes)
                    fabrics[fabric.index] = fabric
                } else if key.hasPrefix("acl."), let index = UInt8(key.dropFirst(4)),
                    let bytes = try persistence.get(key)
                {
                    guard case .array(let items)? = try? TLVElement.decode(bytes).value,
                        let entries = try? items.map({ e throws(StatusIB) in try AccessControlEntry(tlv: e) })
                    else {
                        throw DeviceError.storage("ACL of fabric \(index) is unreadable")
                    }
                    accessControl.replaceEntries(fabric: index, with: entries)
                    aclIndices.insert(index)
                } else if key.hasPrefix("groupkeys."), let index = UInt8(key.dropFirst(10)),
                    let bytes = try persistence.get(key)
                {
                    groupKeys[index] = try FabricGroupKeys(decoding: bytes)
                }
            }
        } catch let error as DeviceError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
        if let index = fabrics.keys.sorted().first(where: { !aclIndices.contains($0) }) {
            throw .storage(
                "store damaged: \(persistence.store.database.path) holds fabric \(index) without its access control list "
                    + "(they are always written together); move the file aside or restore it from a copy")
        }
    }

    private func aclBytes(_ index: UInt8) -> [UInt8] {
        TLVElement(.array(accessControl.entries(fabric: index).map { TLVElement($0.tlvValue()) })).encoded()
    }

    private func groupKeyChange(_ index: UInt8) -> (sets: [(String, [UInt8])], removals: [String]) {
        guard let keys = groupKeys[index], !keys.isEmpty else { return ([], [DevicePersistence.groupKeysKey(index)]) }
        return ([(DevicePersistence.groupKeysKey(index), keys.encoded())], [])
    }

    /// Writes fabrics with their ACLs and group keys, in one transaction; false (logged) when that failed.
    @discardableResult
    func persist(fabrics indices: [UInt8]) -> Bool {
        var sets: [(String, [UInt8])] = []
        var removals: [String] = []
        for index in indices {
            guard let fabric = fabrics[index] else { continue }
            sets.append((DevicePersistence.fabricKey(index), fabric.encoded()))
            sets.append((DevicePersistence.aclKey(index), aclBytes(index)))
            let keys = groupKeyChange(index)
            sets += keys.sets
            removals += keys.removals
        }
        do {
            try persistence.commit(sets: sets, removals: removals)
            return true
        } catch {
            log.error("could not persist fabrics \(indices): \(error)")
            return false
        }
    }

    /// Writes a committed fabric's ACL (the pending fabric's is written at the commit).
    func persistACL(_ index: UInt8) {
        guard index != pending else { return }
        do {
            try persistence.commit(sets: [(DevicePersistence.aclKey(index), aclBytes(index))])
        } catch {
            log.error("could not persist the ACL of fabric \(index): \(error)")
        }
    }

    /// Writes a committed fabric's group keys (the pending fabric's are written at the commit); false
    /// (logged) when that failed.
    func persistGroupKeys(_ index: UInt8) -> Bool {
        guard index != pending else { return true }
        let change = groupKeyChange(index)
        do {
            try persistence.commit(sets: change.sets, removals: change.removals)
            return true
        } catch {
            log.error("could not persist the group keys of fabric \(index): \(error)")
            return false
        }
    }

    // MARK: Removal

    /// Forgets a fabric in memory: record, ACL, group keys, resumption records (a rollback, or the
    /// first half of ``remove(_:)``).
    func discard(_ index: UInt8) {
        fabrics[index] = nil
        accessControl.removeFabric(index)
        groupKeys[index] = nil
        resumption.removeFabric(index)
        if pending == index { pending = nil }
        onRemoved?(index)
    }

    /// RemoveFabric: forgets a fabric and everything of it, in memory and in storage.
    func remove(_ index: UInt8) {
        discard(index)
        do {
            try persistence.commit(
                sets: [],
                removals: [
                    DevicePersistence.fabricKey(index), DevicePersistence.aclKey(index),
                    DevicePersistence.groupKeysKey(index),
                ])
        } catch {
            log.error("could not remove fabric \(index) from storage: \(error)")
        }
    }
}
