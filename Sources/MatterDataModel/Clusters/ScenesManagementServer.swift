import MatterClusters
package import MatterCore
package import MatterInteraction
package import MatterTLV

/// Scenes Management 0x0062 (rev 1) with SceneNames (SN): scenes per fabric, keyed by group ID and
/// scene ID, holding the scene-able attributes of the endpoint's ``SceneParticipant`` clusters (On/Off,
/// Level Control, Color Control). AddScene, ViewScene, RemoveScene, RemoveAllScenes, StoreScene,
/// RecallScene (over the scene's transition time or the command's), GetSceneMembership, CopyScene;
/// FabricSceneInfo per fabric (current scene and group, SceneValid, capacity); the table is
/// persisted. The rules and status codes follow the spec (Matter 1.5 Application Cluster spec 1.4)
/// and the SDK's scenes server:
///
/// - a non-zero group ID the endpoint is not a member of (on the accessing fabric) → INVALID_COMMAND;
/// - scene ID 0xFF, a transition time over 60 000 s or a name over 16 bytes → CONSTRAINT_ERROR;
/// - no room for a new scene (``SceneTable``) → RESOURCE_EXHAUSTED; a missing scene → NOT_FOUND;
/// - an extension field set for a cluster that is not a participant on the endpoint is ignored; an
///   attribute that is not scene-able, or a value in another field than its type's → INVALID_COMMAND
///   (the SDK's UnsupportedAttribute mapping); a value out of its attribute's range is capped.
///
/// SceneValid goes false for every fabric when a participant's state changes by a command, and for
/// the fabric whose current scene or group is removed. Group 0 scene 0 is the fabric's global scene,
/// which On/Off's OffWithEffect stores and OnWithRecallGlobalScene recalls.
package final class ScenesManagementServer: ClusterServer {
    /// The most a transition may take, ms (60 000 s).
    package static let maxTransitionTime: UInt32 = 60_000_000
    /// The undefined scene ID.
    package static let undefinedScene: UInt8 = 0xFF
    /// Longest scene name, bytes.
    package static let maxNameLength = 16
    /// The global scene's group and scene IDs.
    package static let globalGroup = GroupID(0)
    package static let globalScene: UInt8 = 0

    /// One fabric's SceneInfoStruct, less what the table holds (count, capacity).
    package struct Info: Hashable, Sendable {
        package var currentScene: UInt8 = 0
        package var currentGroup = GroupID(0)
        package var sceneValid = false
    }

    private static let storageName = "scenes"

    /// The endpoint's scenes.
    package private(set) var table: SceneTable
    /// Per fabric, once the fabric used the cluster (not persisted: SceneValid is false after boot).
    package private(set) var info: [UInt8: Info] = [:]

    /// A Scenes Management server whose table holds `tableSize` scenes (SceneTableSize, ≥ 16).
    package init(tableSize: Int = 16) {
        table = SceneTable(size: tableSize)
        super.init(id: .scenesManagement, revision: ClusterSchema.scenesManagement.revision, featureMap: 0x01)
    }

    override package var attributes: [AttributeInfo] {
        Self.attributeInfos(.scenesManagement, [.ScenesManagement.sceneTableSize, .ScenesManagement.fabricSceneInfo])
    }

    override package var acceptedCommands: [CommandInfo] {
        typealias C = CommandID.ScenesManagement
        return Self.commandInfos(
            .scenesManagement,
            [
                C.addScene, C.viewScene, C.removeScene, C.removeAllScenes, C.storeScene, C.recallScene,
                C.getSceneMembership, C.copyScene,
            ])
    }

    override package var generatedCommands: [CommandID] {
        typealias C = CommandID.ScenesManagement
        return [
            C.addSceneResponse, C.viewSceneResponse, C.removeSceneResponse, C.removeAllScenesResponse,
            C.storeSceneResponse, C.getSceneMembershipResponse, C.copySceneResponse,
        ]
    }

    override package func start() {
        if let stored = loadPersisted(named: Self.storageName) { table = SceneTable(size: table.size, stored: stored) }
    }

    // MARK: - Attributes

    override package func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        switch attribute {
        case .ScenesManagement.sceneTableSize:
            return .unsigned(UInt64(table.size))
        case .ScenesManagement.fabricSceneInfo:
            let accessing = context.subject.fabricIndex
            let fabrics = Set(info.keys).union(table.fabrics).sorted()
            return .array(
                fabrics.filter { !context.isFabricFiltered || $0 == accessing }.map { TLVElement(sceneInfo($0)) })
        default:
            throw StatusIB(.unsupportedAttribute)
        }
    }

    /// The SceneInfoStruct of `fabric`.
    private func sceneInfo(_ fabric: UInt8) -> TLVValue {
        let current = info[fabric] ?? Info()
        return .structure([
            TLVElement(tag: .context(0), .unsigned(UInt64(table.scenes(fabric: fabric).count))),
            TLVElement(tag: .context(1), .unsigned(UInt64(current.currentScene))),
            TLVElement(tag: .context(2), .unsigned(UInt64(current.currentGroup.rawValue))),
            TLVElement(tag: .context(3), .bool(current.sceneValid)),
            TLVElement(tag: .context(4), .unsigned(UInt64(min(table.remainingCapacity(fabric: fabric), 0xFE)))),
            TLVElement(tag: .context(0xFE), .unsigned(UInt64(fabric))),
        ])
    }

    // MARK: - Commands

    override package func invoke(_ command: CommandID, fields: CommandFields, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        typealias C = CommandID.ScenesManagement
        let fabric = context.subject.fabricIndex
        switch command {
        case C.addScene:
            let group = GroupID(try fields.unsigned(0, UInt16.self))
            let scene = try fields.unsigned(1, UInt8.self)
            let transition = try fields.unsigned(2, UInt32.self)
            let name = try fields.string(3)
            let sets = try fields.array(4)
            let status = Self.status { () throws(StatusIB) in
                try addScene(
                    fabric: fabric, group: group, scene: scene, transitionTime: transition, name: name, fieldSets: sets)
            }
            return response(C.addSceneResponse, status, group: group, scene: scene)
        case C.viewScene:
            let group = GroupID(try fields.unsigned(0, UInt16.self))
            let id = try fields.unsigned(1, UInt8.self)
            var found: Scene?
            let status = Self.status { () throws(StatusIB) in
                guard id != Self.undefinedScene else { throw StatusIB(.constraintError) }
                try checkGroup(group, fabric: fabric)
                guard let scene = table.scene(fabric: fabric, group: group, scene: id) else {
                    throw StatusIB(.notFound)
                }
                found = scene
            }
            var extra: [TLVElement] = []
            if let found {
                extra = [
                    TLVElement(tag: .context(3), .unsigned(UInt64(found.transitionTime))),
                    TLVElement(tag: .context(4), .utf8(found.name)),
                    TLVElement(tag: .context(5), .array(found.fieldSets.map { TLVElement($0.tlv) })),
                ]
            }
            return response(C.viewSceneResponse, status, group: group, scene: id, extra: extra)
        case C.removeScene:
            let group = GroupID(try fields.unsigned(0, UInt16.self))
            let id = try fields.unsigned(1, UInt8.self)
            let status = Self.status { () throws(StatusIB) in
                guard id != Self.undefinedScene else { throw StatusIB(.constraintError) }
                try checkGroup(group, fabric: fabric)
                guard table.remove(fabric: fabric, group: group, scene: id) else { throw StatusIB(.notFound) }
                var current = info[fabric] ?? Info()
                if current.currentGroup == group, current.currentScene == id { current.sceneValid = false }
                info[fabric] = current
                tableChanged()
            }
            return response(C.removeSceneResponse, status, group: group, scene: id)
        case C.removeAllScenes:
            let group = GroupID(try fields.unsigned(0, UInt16.self))
            let status = Self.status { () throws(StatusIB) in
                try checkGroup(group, fabric: fabric)
                removeAll(fabric: fabric, group: group)
            }
            return response(C.removeAllScenesResponse, status, group: group)
        case C.storeScene:
            let group = GroupID(try fields.unsigned(0, UInt16.self))
            let id = try fields.unsigned(1, UInt8.self)
            let status = Self.status { () throws(StatusIB) in
                guard id != Self.undefinedScene else { throw StatusIB(.constraintError) }
                try storeScene(fabric: fabric, group: group, scene: id)
            }
            return response(C.storeSceneResponse, status, group: group, scene: id)
        case C.recallScene:
            let group = GroupID(try fields.unsigned(0, UInt16.self))
            let id = try fields.unsigned(1, UInt8.self)
            var transition: UInt32?
            if fields[2] != nil { transition = try fields.nullableUnsigned(2, UInt32.self) }
            guard id != Self.undefinedScene else { throw StatusIB(.constraintError) }
            if let transition, transition > Self.maxTransitionTime { throw StatusIB(.constraintError) }
            try recallScene(fabric: fabric, group: group, scene: id, transitionTime: transition)
            return nil
        case C.getSceneMembership:
            let group = GroupID(try fields.unsigned(0, UInt16.self))
            let status = Self.status { () throws(StatusIB) in try checkGroup(group, fabric: fabric) }
            var members = [
                TLVElement(tag: .context(0), .unsigned(UInt64(status.rawValue))),
                TLVElement(
                    tag: .context(1),
                    status == .success ? .unsigned(UInt64(min(table.remainingCapacity(fabric: fabric), 0xFE))) : .null),
                TLVElement(tag: .context(2), .unsigned(UInt64(group.rawValue))),
            ]
            if status == .success {
                members.append(
                    TLVElement(
                        tag: .context(3),
                        .array(table.sceneIDs(fabric: fabric, group: group).map { TLVElement(.unsigned(UInt64($0))) })))
            }
            return CommandResponse(command: C.getSceneMembershipResponse, fields: .structure(members))
        case C.copyScene:
            let mode = try fields.unsigned(0, UInt8.self)
            let fromGroup = GroupID(try fields.unsigned(1, UInt16.self))
            let fromScene = try fields.unsigned(2, UInt8.self)
            let toGroup = GroupID(try fields.unsigned(3, UInt16.self))
            let toScene = try fields.unsigned(4, UInt8.self)
            let status = Self.status { () throws(StatusIB) in
                try copyScene(
                    fabric: fabric, all: mode & 0x01 != 0, from: (fromGroup, fromScene), to: (toGroup, toScene))
            }
            return CommandResponse(
                command: C.copySceneResponse,
                fields: .structure([
                    TLVElement(tag: .context(0), .unsigned(UInt64(status.rawValue))),
                    TLVElement(tag: .context(1), .unsigned(UInt64(fromGroup.rawValue))),
                    TLVElement(tag: .context(2), .unsigned(UInt64(fromScene))),
                ]))
        default:
            throw StatusIB(.unsupportedCommand)
        }
    }

    private static func status(_ body: () throws(StatusIB) -> Void) -> IMStatus {
        do throws(StatusIB) {
            try body()
            return .success
        } catch {
            return error.status
        }
    }

    private func response(
        _ command: CommandID, _ status: IMStatus, group: GroupID, scene: UInt8? = nil, extra: [TLVElement] = []
    ) -> CommandResponse {
        var members = [
            TLVElement(tag: .context(0), .unsigned(UInt64(status.rawValue))),
            TLVElement(tag: .context(1), .unsigned(UInt64(group.rawValue))),
        ]
        if let scene { members.append(TLVElement(tag: .context(2), .unsigned(UInt64(scene)))) }
        return CommandResponse(command: command, fields: .structure(members + extra))
    }

    /// INVALID_COMMAND unless `group` is 0 or a group of `fabric` this endpoint is a member of.
    private func checkGroup(_ group: GroupID, fabric: UInt8) throws(StatusIB) {
        guard group.rawValue != 0 else { return }
        guard let entry = dataModel?.groupTable.entry(fabric: fabric, group: group),
            entry.endpoints.contains(endpointID)
        else { throw StatusIB(.invalidCommand) }
    }

    private var participants: [any SceneParticipant] {
        (endpoint?.clusters ?? []).compactMap { $0 as? any SceneParticipant }.sorted { $0.id < $1.id }
    }

    // MARK: - Behaviour

    /// AddScene: validates and stores a scene given in full.
    package func addScene(
        fabric: UInt8, group: GroupID, scene id: UInt8, transitionTime: UInt32, name: String,
        fieldSets: [TLVElement]
    ) throws(StatusIB) {
        guard transitionTime <= Self.maxTransitionTime, name.utf8.count <= Self.maxNameLength,
            id != Self.undefinedScene
        else { throw StatusIB(.constraintError) }
        try checkGroup(group, fabric: fabric)
        var sets: [SceneFieldSet] = []
        for element in fieldSets {
            guard let cluster = element[context: 0]?.uint.flatMap(UInt32.init(exactly:)),
                let pairs = element[context: 1]?.members
            else { throw StatusIB(.invalidCommand) }
            guard let participant = participants.first(where: { $0.id == ClusterID(cluster) }),
                !sets.contains(where: { $0.cluster == participant.id })
            else { continue }
            var values: [SceneAttributeValue] = []
            for pair in pairs {
                let value = try Self.attributeValue(pair, of: participant)
                values.removeAll { $0.attribute == value.attribute }
                values.append(value)
            }
            if !values.isEmpty { sets.append(SceneFieldSet(cluster: participant.id, values: values)) }
        }
        try table.set(
            Scene(groupID: group, sceneID: id, name: name, transitionTime: transitionTime, fieldSets: sets),
            fabric: fabric)
        if info[fabric] == nil { info[fabric] = Info() }
        tableChanged()
    }

    /// One AttributeValuePairStruct, checked against the participant's scene-able attributes and capped.
    private static func attributeValue(_ pair: TLVElement, of participant: any SceneParticipant) throws(StatusIB)
        -> SceneAttributeValue
    {
        guard let raw = pair[context: 0]?.uint.flatMap(UInt32.init(exactly:)),
            let attribute = participant.sceneAttributes.first(where: { $0.id == AttributeID(raw) })
        else { throw StatusIB(.invalidCommand) }
        let populated = (pair.members ?? []).filter { $0.tag != .context(0) }
        guard populated.count == 1, let member = populated.first, member.tag == .context(attribute.kind.rawValue)
        else { throw StatusIB(.invalidCommand) }
        let value: Int64
        if attribute.kind.isSigned, let signed = member.int {
            value = signed
        } else if !attribute.kind.isSigned, let unsigned = member.uint {
            value = Int64(clamping: unsigned)
        } else {
            throw StatusIB(.invalidCommand)
        }
        return SceneAttributeValue(
            attribute.id, attribute.kind, min(max(value, attribute.range.lowerBound), attribute.range.upperBound))
    }

    /// StoreScene: the participants' current values under (`group`, `scene`); an existing scene keeps
    /// its name and transition time. The fabric's current scene becomes this one, valid.
    package func storeScene(fabric: UInt8, group: GroupID, scene id: UInt8) throws(StatusIB) {
        invalidate(fabric: fabric)
        try checkGroup(group, fabric: fabric)
        var scene = table.scene(fabric: fabric, group: group, scene: id) ?? Scene(groupID: group, sceneID: id)
        scene.fieldSets = participants.compactMap { participant in
            let values = participant.currentSceneValues()
            return values.isEmpty ? nil : SceneFieldSet(cluster: participant.id, values: values)
        }
        try table.set(scene, fabric: fabric)
        info[fabric] = Info(currentScene: id, currentGroup: group, sceneValid: true)
        tableChanged()
    }

    /// RecallScene: applies the scene's values over `transitionTime` ms (nil: the scene's own). Every
    /// fabric's SceneValid goes false, then the recalling fabric's current scene is this one, valid.
    /// INVALID_COMMAND for a group the endpoint is not in, NOT_FOUND without the scene.
    package func recallScene(fabric: UInt8, group: GroupID, scene id: UInt8, transitionTime: UInt32? = nil)
        throws(StatusIB)
    {
        invalidateScenes()
        try checkGroup(group, fabric: fabric)
        guard let scene = table.scene(fabric: fabric, group: group, scene: id) else { throw StatusIB(.notFound) }
        let duration = transitionTime ?? scene.transitionTime
        for participant in participants {
            guard let values = scene.values(of: participant.id) else { continue }
            participant.recallScene(values, transitionTime: duration)
        }
        info[fabric] = Info(currentScene: id, currentGroup: group, sceneValid: true)
        attributeChanged(.ScenesManagement.fabricSceneInfo)
        note("scenes \(endpointID.rawValue): recalled group \(group.rawValue) scene \(id)")
    }

    /// CopyScene: one scene to another key, or (`all`) every scene of a group to another group with
    /// the same scene IDs.
    private func copyScene(fabric: UInt8, all: Bool, from: (GroupID, UInt8), to: (GroupID, UInt8)) throws(StatusIB) {
        guard from.1 != Self.undefinedScene, to.1 != Self.undefinedScene else { throw StatusIB(.constraintError) }
        try checkGroup(from.0, fabric: fabric)
        try checkGroup(to.0, fabric: fabric)
        defer { tableChanged() }
        if info[fabric] == nil { info[fabric] = Info() }
        if all {
            for id in table.sceneIDs(fabric: fabric, group: from.0) {
                guard var scene = table.scene(fabric: fabric, group: from.0, scene: id) else { continue }
                scene.groupID = to.0
                try table.set(scene, fabric: fabric)
            }
            return
        }
        guard var scene = table.scene(fabric: fabric, group: from.0, scene: from.1) else { throw StatusIB(.notFound) }
        scene.groupID = to.0
        scene.sceneID = to.1
        try table.set(scene, fabric: fabric)
    }

    private func removeAll(fabric: UInt8, group: GroupID) {
        table.removeAll(fabric: fabric, group: group)
        var current = info[fabric] ?? Info()
        if current.currentGroup == group { current.sceneValid = false }
        info[fabric] = current
        tableChanged()
    }

    /// The Groups server is about to remove this endpoint from `group` of `fabric`: its scenes go.
    func groupRemoved(_ group: GroupID, fabric: UInt8) {
        guard group.rawValue != 0, !table.sceneIDs(fabric: fabric, group: group).isEmpty || info[fabric] != nil
        else { return }
        removeAll(fabric: fabric, group: group)
    }

    /// A participant's state changed by a command: no fabric's current scene is valid any more.
    package func invalidateScenes() {
        var changed = false
        for fabric in info.keys where info[fabric]?.sceneValid == true {
            info[fabric]?.sceneValid = false
            changed = true
        }
        if changed { attributeChanged(.ScenesManagement.fabricSceneInfo) }
    }

    private func invalidate(fabric: UInt8) {
        guard info[fabric]?.sceneValid == true else { return }
        info[fabric]?.sceneValid = false
        attributeChanged(.ScenesManagement.fabricSceneInfo)
    }

    override package func fabricRemoved(_ fabricIndex: UInt8) {
        guard info[fabricIndex] != nil || table.fabrics.contains(fabricIndex) else { return }
        info[fabricIndex] = nil
        table.removeFabric(fabricIndex)
        tableChanged()
    }

    private func tableChanged() {
        persist(named: Self.storageName, table.tlv)
        attributeChanged(.ScenesManagement.fabricSceneInfo)
    }

    override package func changeDescription(of attribute: AttributeID, value: TLVValue) -> String? {
        attribute == .ScenesManagement.fabricSceneInfo ? nil : super.changeDescription(of: attribute, value: value)
    }
}
