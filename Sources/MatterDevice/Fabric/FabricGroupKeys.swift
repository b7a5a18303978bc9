import MatterCore
import MatterTLV

/// One fabric's group keys (GroupKeyManagement): its key sets other than the IPK (key set 0, which
/// the fabric record carries) and its GroupKeyMap, in the order the administrator wrote it.
struct FabricGroupKeys: Equatable {
    /// One epoch key of a key set and when it starts (µs since the Matter epoch).
    struct EpochKey: Equatable {
        var key: [UInt8]
        var startTime: UInt64
    }

    /// A GroupKeySetStruct as KeySetWrite stored it.
    struct KeySet: Equatable {
        var id: UInt16
        /// GroupKeySecurityPolicy: 0 TrustFirst, 1 CacheAndSync.
        var securityPolicy: UInt8
        /// One to three, by strictly increasing start time.
        var epochKeys: [EpochKey]
        /// GroupKeyMulticastPolicy, when the administrator gave one.
        var multicastPolicy: UInt8?
    }

    /// A GroupKeyMapStruct: group `groupID` uses key set `keySetID`.
    struct Mapping: Equatable {
        var groupID: UInt16
        var keySetID: UInt16
    }

    var keySets: [KeySet] = []
    var map: [Mapping] = []

    var isEmpty: Bool { keySets.isEmpty && map.isEmpty }

    func keySet(_ id: UInt16) -> KeySet? { keySets.first { $0.id == id } }

    /// Adds or replaces the key set with `keySet`'s ID.
    mutating func store(_ keySet: KeySet) {
        if let position = keySets.firstIndex(where: { $0.id == keySet.id }) {
            keySets[position] = keySet
        } else {
            keySets.append(keySet)
            keySets.sort { $0.id < $1.id }
        }
    }

    /// Removes key set `id` and the mappings that used it; false when there was none.
    mutating func removeKeySet(_ id: UInt16) -> Bool {
        guard let position = keySets.firstIndex(where: { $0.id == id }) else { return false }
        keySets.remove(at: position)
        map.removeAll { $0.keySetID == id }
        return true
    }

    // MARK: Storage

    func encoded() -> [UInt8] {
        var w = TLVWriter(capacity: 256)
        w.putStructure { w in
            w.putArray(tag: .context(1)) { w in
                for keySet in keySets {
                    w.putStructure { w in
                        w.put(keySet.id, tag: .context(0))
                        w.put(keySet.securityPolicy, tag: .context(1))
                        w.putArray(tag: .context(2)) { w in
                            for epoch in keySet.epochKeys {
                                w.putStructure { w in
                                    w.put(epoch.key, tag: .context(0))
                                    w.put(epoch.startTime, tag: .context(1))
                                }
                            }
                        }
                        if let policy = keySet.multicastPolicy { w.put(policy, tag: .context(3)) }
                    }
                }
            }
            w.putArray(tag: .context(2)) { w in
                for mapping in map {
                    w.putStructure { w in
                        w.put(mapping.groupID, tag: .context(0))
                        w.put(mapping.keySetID, tag: .context(1))
                    }
                }
            }
        }
        return w.bytes
    }

    init() {}

    init(decoding bytes: [UInt8]) throws(DeviceError) {
        do {
            let e = try TLVElement.decode(bytes)
            for item in e[context: 1]?.members ?? [] {
                let epochs = try (item[context: 2]?.members ?? []).map { epoch throws in
                    EpochKey(key: try epoch.decodeMember(.context(0)), startTime: try epoch.decodeMember(.context(1)))
                }
                keySets.append(
                    KeySet(
                        id: try item.decodeMember(.context(0)), securityPolicy: try item.decodeMember(.context(1)),
                        epochKeys: epochs, multicastPolicy: try item.decodeMemberIfPresent(.context(3))))
            }
            for item in e[context: 2]?.members ?? [] {
                map.append(
                    Mapping(groupID: try item.decodeMember(.context(0)), keySetID: try item.decodeMember(.context(1))))
            }
        } catch {
            throw .storage("stored group keys are unreadable: \(error)")
        }
    }
}
