import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV

/// GroupKeyManagement 0x003F on endpoint 0: per fabric, key sets (key set 0 is the IPK AddNOC gave,
/// which cannot be written or removed) and the GroupKeyMap binding groups to them, kept in the
/// ``FabricTable`` (persisted with the fabric, removed with it); GroupTable reports the data model's
/// shared ``GroupTable`` the Groups servers keep. Rules as the SDK's group-key-mgmt-server.
final class GroupKeyManagementServer: RootClusterServer {
    typealias A = AttributeID.GroupKeyManagement
    typealias C = CommandID.GroupKeyManagement
    typealias KeySet = FabricGroupKeys.KeySet

    /// Key sets per fabric, the IPK included (TC_RR_1_1: at least 3).
    static let maxGroupKeysPerFabric = 3
    /// Epoch keys are 128-bit.
    static let epochKeyLength = 16
    /// GroupKeySecurityPolicyEnum: TrustFirst, CacheAndSync (needs the CS feature, not supported).
    static let trustFirst: UInt8 = 0
    static let cacheAndSync: UInt8 = 1
    /// GroupKeyMulticastPolicyEnum: PerGroupID, AllNodes.
    static let maxMulticastPolicy: UInt8 = 1

    let fabrics: FabricTable

    init(fabrics: FabricTable) {
        self.fabrics = fabrics
        super.init(
            .groupKeyManagement,
            attributes: [A.groupKeyMap, A.groupTable, A.maxGroupsPerFabric, A.maxGroupKeysPerFabric])
    }

    /// Groups per fabric: the Groups servers' table capacity (TC_RR_1_1: at least 4).
    var maxGroupsPerFabric: Int { dataModel?.groupTable.maxGroupsPerFabric ?? 0 }

    override func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        let shown = fabrics.all.map(\.index).filter { !context.isFabricFiltered || $0 == context.subject.fabricIndex }
        switch attribute {
        case A.groupKeyMap:
            return .array(
                shown.flatMap { index in
                    (fabrics.groupKeys[index]?.map ?? []).map { mapping in
                        TLVElement(
                            Field.structure([
                                (1, Field.uint(mapping.groupID)), (2, Field.uint(mapping.keySetID)),
                                (0xFE, Field.uint(index)),
                            ]))
                    }
                })
        case A.groupTable:
            guard let table = dataModel?.groupTable else { return .array([]) }
            return .array(
                shown.flatMap { index in
                    table.entries(fabric: index).map { entry in
                        TLVElement(
                            Field.structure([
                                (1, Field.uint(entry.groupID.rawValue)),
                                (2, .array(entry.endpoints.map { TLVElement(Field.uint($0.rawValue)) })),
                                (3, .utf8(entry.name)), (0xFE, Field.uint(index)),
                            ]))
                    }
                })
        case A.maxGroupsPerFabric: return Field.uint(UInt16(clamping: maxGroupsPerFabric))
        case A.maxGroupKeysPerFabric: return Field.uint(UInt16(Self.maxGroupKeysPerFabric))
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    // MARK: GroupKeyMap

    /// Writes replace (or extend) only the accessing fabric's map.
    override func write(_ attribute: AttributeID, _ write: AttributeWrite, context: InteractionContext) throws(StatusIB)
    {
        guard attribute == A.groupKeyMap else { throw StatusIB(.unsupportedWrite) }
        let index = context.subject.fabricIndex
        guard index != 0, fabrics[index] != nil else { throw StatusIB(.unsupportedAccess) }
        var keys = fabrics.groupKeys[index] ?? FabricGroupKeys()
        switch write {
        case .replace(let value):
            guard let items = TLVElement(value).members, value.isArrayOrList else { throw StatusIB(.invalidDataType) }
            var map: [FabricGroupKeys.Mapping] = []
            for item in items { try append(try mapping(item), to: &map) }
            keys.map = map
        case .append(let value):
            try append(try mapping(TLVElement(value)), to: &keys.map)
        }
        try store(keys, fabric: index)
        attributeChanged(A.groupKeyMap)
    }

    /// A GroupKeyMapStruct (its FabricIndex field is the accessing fabric's, whatever was sent).
    private func mapping(_ element: TLVElement) throws(StatusIB) -> FabricGroupKeys.Mapping {
        guard case .structure = element.value else { throw StatusIB(.invalidDataType) }
        guard case .unsigned(let group)? = element[context: 1]?.value,
            case .unsigned(let keySet)? = element[context: 2]?.value
        else { throw StatusIB(.invalidDataType) }
        guard let groupID = UInt16(exactly: group), let keySetID = UInt16(exactly: keySet) else {
            throw StatusIB(.constraintError)
        }
        // Group 0 does not exist; key set 0 (the IPK) cannot be mapped to a group.
        guard groupID != 0, keySetID != 0 else { throw StatusIB(.constraintError) }
        return FabricGroupKeys.Mapping(groupID: groupID, keySetID: keySetID)
    }

    private func append(_ mapping: FabricGroupKeys.Mapping, to map: inout [FabricGroupKeys.Mapping]) throws(StatusIB) {
        guard !map.contains(mapping) else { throw StatusIB(.constraintError) }
        guard map.count < maxGroupsPerFabric else { throw StatusIB(.resourceExhausted) }
        map.append(mapping)
    }

    private func store(_ keys: FabricGroupKeys, fabric index: UInt8) throws(StatusIB) {
        let previous = fabrics.groupKeys[index]
        fabrics.groupKeys[index] = keys
        guard fabrics.persistGroupKeys(index) else {
            fabrics.groupKeys[index] = previous
            throw StatusIB(.failure)
        }
    }

    // MARK: Commands

    override func invoke(_ command: CommandID, fields: CommandFields, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        let index = context.subject.fabricIndex
        switch command {
        case C.keySetWrite:
            try keySetWrite(try fields.structure(0), fabric: index)
            return nil
        case C.keySetRead:
            let id = try fields.unsigned(0, UInt16.self)
            guard let keySet = keySet(id, fabric: index) else { throw StatusIB(.notFound) }
            return Field.response(C.keySetReadResponse, [(0, Self.readValue(keySet))])
        case C.keySetRemove:
            let id = try fields.unsigned(0, UInt16.self)
            guard id != 0 else { throw StatusIB(.invalidCommand) }
            guard var keys = fabrics.groupKeys[index], keys.keySet(id) != nil else { throw StatusIB(.notFound) }
            let mapped = keys.map
            _ = keys.removeKeySet(id)
            try store(keys, fabric: index)
            if keys.map != mapped { attributeChanged(A.groupKeyMap) }
            return nil
        case C.keySetReadAllIndices:
            let ids = fabrics[index] == nil ? [] : [0] + (fabrics.groupKeys[index]?.keySets.map(\.id) ?? [])
            return Field.response(
                C.keySetReadAllIndicesResponse, [(0, .array(ids.map { TLVElement(Field.uint($0)) }))])
        default:
            throw StatusIB(.unsupportedCommand)
        }
    }

    /// Key set `id` of a fabric: 0 is the IPK (TrustFirst, one epoch key starting at 0).
    private func keySet(_ id: UInt16, fabric index: UInt8) -> KeySet? {
        guard let fabric = fabrics[index] else { return nil }
        if id == 0 {
            return KeySet(
                id: 0, securityPolicy: Self.trustFirst,
                epochKeys: [FabricGroupKeys.EpochKey(key: fabric.ipkEpochKey, startTime: 0)], multicastPolicy: nil)
        }
        return fabrics.groupKeys[index]?.keySet(id)
    }

    /// KeySetWrite (spec 11.2.8.1), validated in the SDK's order.
    private func keySetWrite(_ set: CommandFields, fabric index: UInt8) throws(StatusIB) {
        guard fabrics[index] != nil else { throw StatusIB(.failure) }
        let id = try set.unsigned(0, UInt16.self)
        let policy = try set.unsigned(1, UInt8.self)
        var epochKeys: [FabricGroupKeys.EpochKey] = []
        for slot in 0..<3 {
            let key = try nullableOctets(set, UInt8(2 + 2 * slot))
            let start = try nullableUnsigned(set, UInt8(3 + 2 * slot))
            if slot == 0 {
                // EpochKey0 and EpochStartTime0 are mandatory, the start time not 0.
                guard let key, let start, start != 0 else { throw StatusIB(.invalidCommand) }
                guard key.count == Self.epochKeyLength else { throw StatusIB(.constraintError) }
                epochKeys.append(FabricGroupKeys.EpochKey(key: key, startTime: start))
                continue
            }
            // Key and start time both null or both given; a later epoch needs the earlier ones and
            // starts strictly after them.
            guard (key == nil) == (start == nil) else { throw StatusIB(.invalidCommand) }
            guard let key, let start else { continue }
            guard epochKeys.count == slot else { throw StatusIB(.invalidCommand) }
            guard key.count == Self.epochKeyLength else { throw StatusIB(.constraintError) }
            guard let previous = epochKeys.last, start > previous.startTime else { throw StatusIB(.invalidCommand) }
            epochKeys.append(FabricGroupKeys.EpochKey(key: key, startTime: start))
        }
        guard policy <= Self.cacheAndSync else { throw StatusIB(.constraintError) }
        guard policy == Self.trustFirst else { throw StatusIB(.invalidCommand) }  // no CacheAndSync feature
        let multicast = try set.optionalUnsigned(8, UInt8.self)
        if let multicast, multicast > Self.maxMulticastPolicy { throw StatusIB(.constraintError) }
        // Key set 0 is the IPK, which AddNOC set and only a new NOC changes.
        guard id != 0 else { throw StatusIB(.invalidCommand) }
        var keys = fabrics.groupKeys[index] ?? FabricGroupKeys()
        if keys.keySet(id) == nil, keys.keySets.count + 1 >= Self.maxGroupKeysPerFabric {
            throw StatusIB(.resourceExhausted)
        }
        keys.store(KeySet(id: id, securityPolicy: policy, epochKeys: epochKeys, multicastPolicy: multicast))
        try store(keys, fabric: index)
    }

    /// A mandatory nullable octet string; absent counts as null.
    private func nullableOctets(_ fields: CommandFields, _ tag: UInt8) throws(StatusIB) -> [UInt8]? {
        guard let member = fields[tag] else { return nil }
        switch member.value {
        case .null: return nil
        case .bytes(let bytes): return bytes
        default: throw StatusIB(.invalidCommand)
        }
    }

    /// A nullable unsigned integer; absent counts as null.
    private func nullableUnsigned(_ fields: CommandFields, _ tag: UInt8) throws(StatusIB) -> UInt64? {
        guard let member = fields[tag] else { return nil }
        switch member.value {
        case .null: return nil
        case .unsigned(let value): return value
        default: throw StatusIB(.invalidCommand)
        }
    }

    /// A GroupKeySetStruct as KeySetReadResponse carries it: epoch keys withheld (null), start times given.
    static func readValue(_ keySet: KeySet) -> TLVValue {
        func start(_ slot: Int) -> TLVValue {
            slot < keySet.epochKeys.count ? .unsigned(keySet.epochKeys[slot].startTime) : .null
        }
        return Field.structure([
            (0, Field.uint(keySet.id)), (1, Field.uint(keySet.securityPolicy)), (2, .null), (3, start(0)), (4, .null),
            (5, start(1)), (6, .null), (7, start(2)), (8, keySet.multicastPolicy.map { Field.uint($0) }),
        ])
    }
}
