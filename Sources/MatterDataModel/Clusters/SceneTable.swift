package import MatterCore
package import MatterInteraction
import MatterTLV

/// One scene of one fabric: its key (group ID, scene ID), name, transition time and the values of the
/// scene-able attributes of the endpoint's clusters (extension field sets).
package struct Scene: Hashable, Sendable {
    /// The group (0: the scene belongs to no group; group 0 scene 0 is the global scene).
    package var groupID: GroupID
    /// 0...254 (0xFF is the undefined scene).
    package var sceneID: UInt8
    /// Up to 16 bytes; empty without the SceneNames feature.
    package var name: String
    /// Milliseconds, ≤ 60 000 000.
    package var transitionTime: UInt32
    /// One per cluster, by ascending cluster ID.
    package var fieldSets: [SceneFieldSet]

    package init(
        groupID: GroupID, sceneID: UInt8, name: String = "", transitionTime: UInt32 = 0,
        fieldSets: [SceneFieldSet] = []
    ) {
        self.groupID = groupID
        self.sceneID = sceneID
        self.name = name
        self.transitionTime = transitionTime
        self.fieldSets = fieldSets.sorted { $0.cluster < $1.cluster }
    }

    /// The values of `cluster`, if the scene has any.
    package func values(of cluster: ClusterID) -> [SceneAttributeValue]? {
        fieldSets.first { $0.cluster == cluster }?.values
    }
}

/// ExtensionFieldSetStruct: the scene's values of one cluster.
package struct SceneFieldSet: Hashable, Sendable {
    package var cluster: ClusterID
    /// By ascending attribute ID.
    package var values: [SceneAttributeValue]

    package init(cluster: ClusterID, values: [SceneAttributeValue]) {
        self.cluster = cluster
        self.values = values.sorted { $0.attribute < $1.attribute }
    }

    /// The ExtensionFieldSetStruct.
    var tlv: TLVValue {
        .structure([
            TLVElement(tag: .context(0), .unsigned(UInt64(cluster.rawValue))),
            TLVElement(tag: .context(1), .array(values.map { TLVElement($0.tlv) })),
        ])
    }
}

/// AttributeValuePairStruct: one attribute and its value, held in the value field of the attribute's
/// type (``SceneAttribute/Kind``).
package struct SceneAttributeValue: Hashable, Sendable {
    package var attribute: AttributeID
    package var kind: SceneAttribute.Kind
    /// The value (booleans as 0/1); signed kinds keep their sign in the bit pattern of `Int64`.
    package var value: Int64

    package init(_ attribute: AttributeID, _ kind: SceneAttribute.Kind, _ value: Int64) {
        self.attribute = attribute
        self.kind = kind
        self.value = value
    }

    /// The value as an unsigned integer (0 for negative values).
    package var unsigned: UInt64 { value < 0 ? 0 : UInt64(value) }

    var tlv: TLVValue {
        .structure([
            TLVElement(tag: .context(0), .unsigned(UInt64(attribute.rawValue))),
            TLVElement(tag: .context(kind.rawValue), kind.isSigned ? .signed(value) : .unsigned(unsigned)),
        ])
    }
}

/// A scene-able attribute of a cluster, as the cluster describes it to the Scenes Management server.
package struct SceneAttribute: Hashable, Sendable {
    /// The value field of AttributeValuePairStruct the attribute's type uses (its tag).
    package enum Kind: UInt8, Hashable, Sendable {
        case unsigned8 = 1
        case signed8 = 2
        case unsigned16 = 3
        case signed16 = 4
        case unsigned32 = 5
        case signed32 = 6
        case unsigned64 = 7
        case signed64 = 8

        var isSigned: Bool { rawValue % 2 == 0 }
    }

    package let id: AttributeID
    package let kind: Kind
    /// Values outside are capped to the nearest bound when a scene is added (as the SDK does).
    package let range: ClosedRange<Int64>

    package init(_ id: AttributeID, _ kind: Kind, range: ClosedRange<Int64>) {
        self.id = id
        self.kind = kind
        self.range = range
    }
}

/// A cluster whose state scenes hold: it names its scene-able attributes, reports their current
/// values for StoreScene and applies a scene's values over a transition for RecallScene.
package protocol SceneParticipant: ClusterServer {
    /// The scene-able attributes this instance serves.
    var sceneAttributes: [SceneAttribute] { get }
    /// The current values of ``sceneAttributes`` (StoreScene).
    func currentSceneValues() -> [SceneAttributeValue]
    /// Moves to `values` (each already within its attribute's range) over `transitionTime` ms.
    func recallScene(_ values: [SceneAttributeValue], transitionTime: UInt32)
}

/// The scenes of one endpoint, per fabric (spec 1.4.4): at most ``size`` in all and
/// ``maxPerFabric`` for one fabric — (SceneTableSize − 1) / 2, as the SDK, so that two fabrics can
/// never take the whole table from a third. Confined to the node's queue.
package struct SceneTable: Hashable, Sendable {
    /// SceneTableSize.
    package let size: Int
    /// Scenes one fabric may hold.
    package var maxPerFabric: Int { max((size - 1) / 2, 1) }
    private var scenes: [UInt8: [Scene]] = [:]

    package init(size: Int = 16) { self.size = size }

    /// Scenes of `fabric`, by group then scene ID.
    package func scenes(fabric: UInt8) -> [Scene] { scenes[fabric] ?? [] }

    /// Fabrics holding at least one scene, ascending.
    package var fabrics: [UInt8] { scenes.keys.filter { !(scenes[$0] ?? []).isEmpty }.sorted() }

    /// The scene (`group`, `scene`) of `fabric`.
    package func scene(fabric: UInt8, group: GroupID, scene: UInt8) -> Scene? {
        scenes[fabric]?.first { $0.groupID == group && $0.sceneID == scene }
    }

    /// How many more scenes `fabric` may add: bounded by its own share and by the whole table.
    package func remainingCapacity(fabric: UInt8) -> Int {
        let total = scenes.values.reduce(0) { $0 + $1.count }
        return max(0, min(maxPerFabric - scenes(fabric: fabric).count, size - total))
    }

    /// Adds or replaces `scene`; RESOURCE_EXHAUSTED when it is new and there is no room.
    package mutating func set(_ scene: Scene, fabric: UInt8) throws(StatusIB) {
        var list = scenes[fabric] ?? []
        if let index = list.firstIndex(where: { $0.groupID == scene.groupID && $0.sceneID == scene.sceneID }) {
            list[index] = scene
        } else {
            guard remainingCapacity(fabric: fabric) > 0 else { throw StatusIB(.resourceExhausted) }
            list.append(scene)
            list.sort { ($0.groupID, $0.sceneID) < ($1.groupID, $1.sceneID) }
        }
        scenes[fabric] = list
    }

    /// Removes one scene; false when there was none.
    @discardableResult
    package mutating func remove(fabric: UInt8, group: GroupID, scene: UInt8) -> Bool {
        guard var list = scenes[fabric],
            let index = list.firstIndex(where: { $0.groupID == group && $0.sceneID == scene })
        else { return false }
        list.remove(at: index)
        scenes[fabric] = list
        return true
    }

    /// Removes every scene of `group` on `fabric`.
    package mutating func removeAll(fabric: UInt8, group: GroupID) {
        scenes[fabric]?.removeAll { $0.groupID == group }
    }

    /// Forgets a fabric's scenes.
    package mutating func removeFabric(_ fabric: UInt8) { scenes[fabric] = nil }

    /// The scene IDs of `group` on `fabric`, ascending.
    package func sceneIDs(fabric: UInt8, group: GroupID) -> [UInt8] {
        scenes(fabric: fabric).filter { $0.groupID == group }.map(\.sceneID)
    }

    // MARK: - Persistence

    /// The table as stored: a list of {0 fabric, 1 group, 2 scene, 3 name, 4 transition ms, 5 field sets}.
    var tlv: TLVValue {
        .array(
            scenes.keys.sorted().flatMap { fabric in
                (scenes[fabric] ?? []).map { scene in
                    TLVElement(
                        .structure([
                            TLVElement(tag: .context(0), .unsigned(UInt64(fabric))),
                            TLVElement(tag: .context(1), .unsigned(UInt64(scene.groupID.rawValue))),
                            TLVElement(tag: .context(2), .unsigned(UInt64(scene.sceneID))),
                            TLVElement(tag: .context(3), .utf8(scene.name)),
                            TLVElement(tag: .context(4), .unsigned(UInt64(scene.transitionTime))),
                            TLVElement(tag: .context(5), .array(scene.fieldSets.map { TLVElement($0.tlv) })),
                        ]))
                }
            })
    }

    /// Restores a stored table; entries that do not decode are skipped.
    init(size: Int, stored: TLVValue) {
        self.init(size: size)
        for entry in stored.members ?? [] {
            guard let fabric = entry[context: 0]?.uint.flatMap(UInt8.init(exactly:)),
                let group = entry[context: 1]?.uint.flatMap(UInt16.init(exactly:)),
                let id = entry[context: 2]?.uint.flatMap(UInt8.init(exactly:)),
                let name = entry[context: 3]?.string,
                let transition = entry[context: 4]?.uint.flatMap(UInt32.init(exactly:)),
                let sets = entry[context: 5]?.members
            else { continue }
            let fieldSets = sets.compactMap(Self.fieldSet)
            try? set(
                Scene(
                    groupID: GroupID(group), sceneID: id, name: name, transitionTime: transition,
                    fieldSets: fieldSets), fabric: fabric)
        }
    }

    private static func fieldSet(_ element: TLVElement) -> SceneFieldSet? {
        guard let cluster = element[context: 0]?.uint.flatMap(UInt32.init(exactly:)),
            let pairs = element[context: 1]?.members
        else { return nil }
        let values = pairs.compactMap { pair -> SceneAttributeValue? in
            guard let attribute = pair[context: 0]?.uint.flatMap(UInt32.init(exactly:)) else { return nil }
            for kind in (1...8).compactMap(SceneAttribute.Kind.init(rawValue:)) {
                guard let member = pair[context: kind.rawValue] else { continue }
                if let value = member.int { return SceneAttributeValue(AttributeID(attribute), kind, value) }
                if let value = member.uint, let signedValue = Int64(exactly: value) {
                    return SceneAttributeValue(AttributeID(attribute), kind, signedValue)
                }
            }
            return nil
        }
        return SceneFieldSet(cluster: ClusterID(cluster), values: values)
    }
}
