import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import MatterTestSupport
import MatterTransport
import Testing

/// Scenes Management 0x0062 over On/Off, Level Control and Color Control, on the manual clock.
@Suite("Scenes Management")
struct ScenesTests {
    typealias C = CommandID.ScenesManagement
    typealias A = AttributeID.ScenesManagement

    // MARK: - Helpers

    /// The Status field of a scenes response (nil: no response).
    static func status(_ response: CommandResponse?) -> IMStatus? {
        response?.fields.members?.first { $0.tag == .context(0) }?.uint.flatMap { IMStatus(rawValue: UInt8($0)) }
    }

    /// A member of a response.
    static func field(_ response: CommandResponse?, _ tag: UInt8) -> TLVElement? {
        response?.fields.members?.first { $0.tag == .context(tag) }
    }

    /// An ExtensionFieldSetStruct of (attribute, value field tag, value) pairs.
    static func fieldSet(_ cluster: ClusterID, _ pairs: [(AttributeID, UInt8, TLVValue)]) -> TLVElement {
        TLVElement(
            .structure([
                TLVElement(tag: .context(0), .unsigned(UInt64(cluster.rawValue))),
                TLVElement(
                    tag: .context(1),
                    .array(
                        pairs.map { attribute, tag, value in
                            TLVElement(
                                .structure([
                                    TLVElement(tag: .context(0), .unsigned(UInt64(attribute.rawValue))),
                                    TLVElement(tag: .context(tag), value),
                                ]))
                        })),
            ]))
    }

    @discardableResult
    static func add(
        _ bench: Bench, group: UInt16 = 0, scene: UInt8, transition: UInt32 = 0, name: String = "",
        _ sets: [TLVElement], fabric: UInt8 = 1
    ) throws(StatusIB) -> CommandResponse? {
        try bench.invoke(
            1, .scenesManagement, C.addScene,
            [
                0: .unsigned(UInt64(group)), 1: .unsigned(UInt64(scene)), 2: .unsigned(UInt64(transition)),
                3: .utf8(name), 4: .array(sets),
            ], context: .caseSubject(fabric: fabric))
    }

    static func key(_ group: UInt16, _ scene: UInt8) -> [UInt8: TLVValue] {
        [0: .unsigned(UInt64(group)), 1: .unsigned(UInt64(scene))]
    }

    /// This fabric's SceneInfoStruct (fabric-filtered read).
    static func info(_ bench: Bench, fabric: UInt8 = 1) throws -> TLVElement? {
        let context = InteractionContext(
            subject: SubjectDescriptor(authMode: .case, fabricIndex: fabric, subject: controllerNodeID),
            session: .secure(localSessionID: 1), isFabricFiltered: true)
        let value = try bench.model.readAttribute(
            ConcreteAttributePath(endpoint: EndpointID(1), cluster: .scenesManagement, attribute: A.fabricSceneInfo),
            context: context)
        return value.members?.first
    }

    /// (SceneCount, CurrentScene, CurrentGroup, SceneValid, RemainingCapacity) of a fabric.
    static func summary(_ bench: Bench, fabric: UInt8 = 1) throws -> [UInt64]? {
        guard let info = try info(bench, fabric: fabric) else { return nil }
        return (UInt8(0)...4).map { tag in
            let member = info[context: tag]
            return member?.uint ?? (member?.bool == true ? 1 : 0)
        }
    }

    static func lightOn(_ preset: DevicePreset) throws -> Bench {
        let bench = try Bench(preset)
        try bench.invoke(1, .onOff, .OnOff.on)
        return bench
    }

    // MARK: - Composition

    @Test func everyLightAndThePlugHaveScenesTheLockHasNone() throws {
        for preset in [
            DevicePreset.onOffLight, .dimmableLight, .colorTemperatureLight, .extendedColorLight, .onOffPlug,
        ] {
            let bench = try Bench(preset)
            #expect(bench.value(1, .scenesManagement, A.sceneTableSize) == .unsigned(16))
            #expect(bench.value(1, .scenesManagement, .featureMap) == .unsigned(1))  // SceneNames
            #expect(bench.value(1, .scenesManagement, .clusterRevision) == .unsigned(1))
            #expect(bench.value(1, .scenesManagement, A.fabricSceneInfo) == .array([]))
            #expect(
                bench.model.generatedCommands(endpoint: EndpointID(1), cluster: .scenesManagement).count == 7)
            #expect(bench.accepts(1, .scenesManagement, C.copyScene))
        }
        #expect(try Bench(.doorLock).model.cluster(.scenesManagement, on: EndpointID(1)) == nil)
    }

    // MARK: - Store, change, recall

    @Test("StoreScene takes OnOff, CurrentLevel and the colour; RecallScene moves back over the transition")
    func storeChangeRecallAcrossAllThreeClusters() throws {
        let bench = try Self.lightOn(.extendedColorLight)
        try bench.invoke(1, .levelControl, .LevelControl.moveToLevel, [0: .unsigned(200), 1: .unsigned(0)])
        try bench.invoke(
            1, .colorControl, .ColorControl.moveToColor, [0: .unsigned(30000), 1: .unsigned(20000), 2: .unsigned(0)])
        let stored = try bench.invoke(1, .scenesManagement, C.storeScene, Self.key(0, 1))
        #expect(stored?.command == C.storeSceneResponse)
        #expect(stored?.fields == fields([0: .unsigned(0), 1: .unsigned(0), 2: .unsigned(1)]).value)
        #expect(try Self.summary(bench) == [1, 1, 0, 1, 6])  // one scene, current 1 in group 0, valid

        // Change every cluster: the scene is no longer valid.
        try bench.invoke(1, .levelControl, .LevelControl.moveToLevel, [0: .unsigned(50), 1: .unsigned(0)])
        #expect(try Self.summary(bench)?[3] == 0)
        try bench.invoke(
            1, .colorControl, .ColorControl.moveToColor, [0: .unsigned(10000), 1: .unsigned(10000), 2: .unsigned(0)])
        try bench.invoke(1, .colorControl, .ColorControl.moveToColorTemperature, [0: .unsigned(400), 1: .unsigned(0)])
        #expect(bench.color?.colorMode == .colorTemperature)
        try bench.invoke(1, .onOff, .OnOff.off)
        #expect(bench.onOff?.isOn == false)

        // Recall over 2 s (the command's transition time, in ms).
        try bench.invoke(1, .scenesManagement, C.recallScene, [0: .unsigned(0), 1: .unsigned(1), 2: .unsigned(2000)])
        #expect(bench.onOff?.isOn == true)  // on at once
        #expect(try Self.summary(bench)?[3] == 1)
        #expect(bench.color?.colorMode == .xy)
        bench.advance(1000)
        #expect(bench.currentLevel == 125)  // halfway from 50 to 200
        #expect(bench.color?.currentX == 20000)  // halfway from 10000 to 30000
        #expect(bench.color?.currentY == 15000)
        #expect(bench.color?.colorTemperatureMireds == 400)  // the scene's mode is XY
        bench.advance(1000)
        #expect(bench.currentLevel == 200)
        #expect(bench.color?.currentX == 30000)
        #expect(bench.color?.currentY == 20000)
        #expect(bench.level?.isTransitioning == false)
        #expect(bench.log.contains("scenes 1: recalled group 0 scene 1"))
    }

    @Test("a recalled off comes at the end of the transition, after the level has faded")
    func recalledOffWaitsForTheTransition() throws {
        let bench = try Self.lightOn(.dimmableLight)
        try Self.add(
            bench, scene: 3, transition: 1000,
            [
                Self.fieldSet(.onOff, [(.OnOff.onOff, 1, .unsigned(0))]),
                Self.fieldSet(.levelControl, [(.LevelControl.currentLevel, 1, .unsigned(54))]),
            ])
        try bench.invoke(1, .scenesManagement, C.recallScene, Self.key(0, 3))  // the scene's own 1000 ms
        #expect(bench.onOff?.isOn == true)
        bench.advance(500)
        #expect(bench.currentLevel == 154)
        #expect(bench.onOff?.isOn == true)
        bench.advance(500)
        #expect(bench.currentLevel == 54)
        #expect(bench.onOff?.isOn == false)
        // A null transition time means the scene's own; a zero one, at once.
        try bench.invoke(1, .onOff, .OnOff.on)
        try bench.invoke(1, .scenesManagement, C.recallScene, [0: .unsigned(0), 1: .unsigned(3), 2: .unsigned(0)])
        #expect(bench.onOff?.isOn == false)
        #expect(
            bench.status(1, .scenesManagement, C.recallScene, [0: .unsigned(0), 1: .unsigned(3), 2: .null]) == .success)
    }

    @Test func colourTemperatureScenesOnAColourTemperatureLight() throws {
        let bench = try Self.lightOn(.colorTemperatureLight)
        try bench.invoke(1, .colorControl, .ColorControl.moveToColorTemperature, [0: .unsigned(300), 1: .unsigned(0)])
        try bench.invoke(1, .scenesManagement, C.storeScene, Self.key(0, 2))
        let view = try bench.invoke(1, .scenesManagement, C.viewScene, Self.key(0, 2))
        let color = Self.fieldSet(
            .colorControl,
            [
                (.ColorControl.colorTemperatureMireds, 3, .unsigned(300)),
                (.ColorControl.enhancedColorMode, 1, .unsigned(2)),
            ])
        let level = Self.fieldSet(.levelControl, [(.LevelControl.currentLevel, 1, .unsigned(254))])
        let onOff = Self.fieldSet(.onOff, [(.OnOff.onOff, 1, .unsigned(1))])
        #expect(Self.field(view, 5) == TLVElement(tag: .context(5), .array([onOff, level, color])))
        try bench.invoke(1, .colorControl, .ColorControl.moveToColorTemperature, [0: .unsigned(500), 1: .unsigned(0)])
        try bench.invoke(1, .scenesManagement, C.recallScene, [0: .unsigned(0), 1: .unsigned(2), 2: .unsigned(1000)])
        bench.advance(500)
        #expect(bench.color?.colorTemperatureMireds == 400)
        bench.advance(500)
        #expect(bench.color?.colorTemperatureMireds == 300)
    }

    // MARK: - Add, view, remove

    @Test("AddScene and ViewScene: name, transition, field sets (capped); the spec's status codes")
    func addAndView() throws {
        let bench = try Bench(.extendedColorLight)
        let added = try Self.add(
            bench, scene: 5, transition: 2500, name: "Evening",
            [
                Self.fieldSet(.levelControl, [(.LevelControl.currentLevel, 1, .unsigned(255))]),  // capped to 254
                Self.fieldSet(.colorControl, [(.ColorControl.currentX, 3, .unsigned(0xFFFF))]),  // capped to 0xFEFF
                Self.fieldSet(ClusterID(0x0201), [(AttributeID(0x0012), 3, .unsigned(2000))]),  // no such cluster here
            ])
        #expect(added?.command == C.addSceneResponse)
        #expect(added?.fields == fields([0: .unsigned(0), 1: .unsigned(0), 2: .unsigned(5)]).value)
        let view = try bench.invoke(1, .scenesManagement, C.viewScene, Self.key(0, 5))
        #expect(view?.command == C.viewSceneResponse)
        #expect(Self.status(view) == .success)
        #expect(Self.field(view, 3)?.uint == 2500)
        #expect(Self.field(view, 4)?.string == "Evening")
        #expect(
            Self.field(view, 5)?.value
                == .array([
                    Self.fieldSet(.levelControl, [(.LevelControl.currentLevel, 1, .unsigned(254))]),
                    Self.fieldSet(.colorControl, [(.ColorControl.currentX, 3, .unsigned(0xFEFF))]),
                ]))
        // Status codes, in the response.
        #expect(Self.status(try Self.add(bench, scene: 0xFF, [])) == .constraintError)
        #expect(Self.status(try Self.add(bench, scene: 1, transition: 60_000_001, [])) == .constraintError)
        #expect(
            Self.status(try Self.add(bench, scene: 1, name: String(repeating: "n", count: 17), [])) == .constraintError)
        #expect(Self.status(try Self.add(bench, group: 0x0101, scene: 1, [])) == .invalidCommand)  // no such group
        #expect(
            Self.status(try Self.add(bench, scene: 1, [Self.fieldSet(.onOff, [(.OnOff.onTime, 3, .unsigned(5))])]))
                == .invalidCommand)  // OnTime is not scene-able
        #expect(
            Self.status(try Self.add(bench, scene: 1, [Self.fieldSet(.onOff, [(.OnOff.onOff, 3, .unsigned(1))])]))
                == .invalidCommand)  // a boolean goes in ValueUnsigned8
        let missing = try bench.invoke(1, .scenesManagement, C.viewScene, Self.key(0, 9))
        #expect(Self.status(missing) == .notFound)
        #expect(Self.field(missing, 5) == nil)
        #expect(Self.status(try bench.invoke(1, .scenesManagement, C.viewScene, Self.key(0, 0xFF))) == .constraintError)
        #expect(bench.status(1, .scenesManagement, C.recallScene, Self.key(0, 9)) == .notFound)
        #expect(bench.status(1, .scenesManagement, C.viewScene, [0: .unsigned(0)]) == .invalidCommand)  // no SceneID
    }

    @Test("RemoveScene, RemoveAllScenes, GetSceneMembership and the per-fabric capacity")
    func removeMembershipCapacity() throws {
        let bench = try Bench(.onOffLight)
        for id: UInt8 in 1...7 { #expect(Self.status(try Self.add(bench, scene: id, [])) == .success) }
        // (16 − 1) / 2 = 7 scenes per fabric.
        #expect(Self.status(try Self.add(bench, scene: 8, [])) == .resourceExhausted)
        #expect(Self.status(try Self.add(bench, scene: 7, name: "again", [])) == .success)  // replacing is fine
        #expect(try Self.summary(bench) == [7, 0, 0, 0, 0])
        let membership = try bench.invoke(1, .scenesManagement, C.getSceneMembership, [0: .unsigned(0)])
        #expect(membership?.command == C.getSceneMembershipResponse)
        #expect(
            membership?.fields
                == fields([
                    0: .unsigned(0), 1: .unsigned(0), 2: .unsigned(0),
                    3: .array((1...7).map { TLVElement(.unsigned($0)) }),
                ]).value)
        let removed = try bench.invoke(1, .scenesManagement, C.removeScene, Self.key(0, 3))
        #expect(removed?.fields == fields([0: .unsigned(0), 1: .unsigned(0), 2: .unsigned(3)]).value)
        #expect(Self.status(try bench.invoke(1, .scenesManagement, C.removeScene, Self.key(0, 3))) == .notFound)
        #expect(try Self.summary(bench)?[4] == 1)
        let all = try bench.invoke(1, .scenesManagement, C.removeAllScenes, [0: .unsigned(0)])
        #expect(all?.fields == fields([0: .unsigned(0), 1: .unsigned(0)]).value)
        #expect(try Self.summary(bench) == [0, 0, 0, 0, 7])
        let notMember = try bench.invoke(1, .scenesManagement, C.getSceneMembership, [0: .unsigned(0x0202)])
        #expect(notMember?.fields == fields([0: .unsigned(0x85), 1: .null, 2: .unsigned(0x0202)]).value)
    }

    @Test("CopyScene: one scene to another key, or every scene of a group")
    func copy() throws {
        let bench = try Bench(.dimmableLight)
        try bench.invoke(1, .groups, .Groups.addGroup, [0: .unsigned(0x0101), 1: .utf8("Hall")])
        try bench.invoke(1, .groups, .Groups.addGroup, [0: .unsigned(0x0102), 1: .utf8("Porch")])
        let level = Self.fieldSet(.levelControl, [(.LevelControl.currentLevel, 1, .unsigned(80))])
        try Self.add(bench, group: 0x0101, scene: 1, transition: 300, name: "A", [level])
        try Self.add(bench, group: 0x0101, scene: 2, name: "B", [])
        let one = try bench.invoke(
            1, .scenesManagement, C.copyScene,
            [0: .unsigned(0), 1: .unsigned(0x0101), 2: .unsigned(1), 3: .unsigned(0x0102), 4: .unsigned(9)])
        #expect(one?.command == C.copySceneResponse)
        #expect(one?.fields == fields([0: .unsigned(0), 1: .unsigned(0x0101), 2: .unsigned(1)]).value)
        let copied = try bench.invoke(1, .scenesManagement, C.viewScene, Self.key(0x0102, 9))
        #expect(Self.field(copied, 4)?.string == "A")
        #expect(Self.field(copied, 3)?.uint == 300)
        #expect(Self.field(copied, 5)?.value == .array([level]))
        let all = try bench.invoke(
            1, .scenesManagement, C.copyScene,
            [0: .unsigned(1), 1: .unsigned(0x0101), 2: .unsigned(0), 3: .unsigned(0), 4: .unsigned(0)])
        #expect(Self.status(all) == .success)
        #expect(
            Self.field(try bench.invoke(1, .scenesManagement, C.getSceneMembership, [0: .unsigned(0)]), 3)?.value
                == .array([TLVElement(.unsigned(1)), TLVElement(.unsigned(2))]))
        let missing = try bench.invoke(
            1, .scenesManagement, C.copyScene,
            [0: .unsigned(0), 1: .unsigned(0x0101), 2: .unsigned(7), 3: .unsigned(0), 4: .unsigned(8)])
        #expect(Self.status(missing) == .notFound)
        let badGroup = try bench.invoke(
            1, .scenesManagement, C.copyScene,
            [0: .unsigned(0), 1: .unsigned(0x0101), 2: .unsigned(1), 3: .unsigned(0x0999), 4: .unsigned(8)])
        #expect(Self.status(badGroup) == .invalidCommand)
    }

    // MARK: - Fabrics, groups, persistence

    @Test("each fabric has its own scenes and SceneInfoStruct; a removed fabric's scenes go")
    func perFabricIsolation() throws {
        let bench = try Bench(.dimmableLight)
        try Self.add(bench, scene: 1, name: "one", [], fabric: 1)
        #expect(
            Self.status(
                try bench.invoke(1, .scenesManagement, C.viewScene, Self.key(0, 1), context: .caseSubject(fabric: 2)))
                == .notFound)
        try Self.add(bench, scene: 1, name: "two", [], fabric: 2)
        let viewed = try bench.invoke(
            1, .scenesManagement, C.viewScene, Self.key(0, 1), context: .caseSubject(fabric: 2))
        #expect(Self.field(viewed, 4)?.string == "two")
        // Filtered reads show the accessing fabric's entry only; unfiltered ones both.
        #expect(try Self.info(bench, fabric: 2)?[context: 0xFE]?.uint == 2)
        #expect(bench.value(1, .scenesManagement, A.fabricSceneInfo)?.members?.count == 2)
        // Capacity: 7 for each fabric, and 16 in all.
        #expect(try Self.summary(bench, fabric: 1)?[4] == 6)
        bench.model.fabricRemoved(2)
        #expect(bench.value(1, .scenesManagement, A.fabricSceneInfo)?.members?.count == 1)
        #expect(try Self.info(bench, fabric: 2) == nil)
        #expect(
            Self.status(
                try bench.invoke(1, .scenesManagement, C.viewScene, Self.key(0, 1), context: .caseSubject(fabric: 1)))
                == .success)
    }

    @Test("scenes of a group need the group; RemoveGroup and RemoveAllGroups take its scenes along")
    func groupsInteraction() throws {
        let bench = try Self.lightOn(.onOffLight)
        try bench.invoke(1, .groups, .Groups.addGroup, [0: .unsigned(0x0101), 1: .utf8("Hall")])
        try bench.invoke(1, .groups, .Groups.addGroup, [0: .unsigned(0x0102), 1: .utf8("Porch")])
        #expect(Self.status(try bench.invoke(1, .scenesManagement, C.storeScene, Self.key(0x0101, 1))) == .success)
        #expect(Self.status(try bench.invoke(1, .scenesManagement, C.storeScene, Self.key(0x0102, 1))) == .success)
        #expect(try Self.summary(bench) == [2, 1, 0x0102, 1, 5])
        try bench.invoke(1, .groups, .Groups.removeGroup, [0: .unsigned(0x0102)])
        #expect(try Self.summary(bench) == [1, 1, 0x0102, 0, 6])  // the current group went: not valid
        #expect(bench.status(1, .scenesManagement, C.recallScene, Self.key(0x0102, 1)) == .invalidCommand)
        try bench.invoke(1, .groups, .Groups.removeAllGroups)
        #expect(try Self.summary(bench)?[0] == 0)
    }

    @Test func scenesSurviveARestart() throws {
        let bench = try Self.lightOn(.colorTemperatureLight)
        try bench.invoke(1, .levelControl, .LevelControl.moveToLevel, [0: .unsigned(90), 1: .unsigned(0)])
        try bench.invoke(1, .scenesManagement, C.storeScene, Self.key(0, 4))
        try Self.add(bench, scene: 5, transition: 100, name: "Named", [], fabric: 2)
        let restarted = try bench.reboot(.colorTemperatureLight)
        let view = try restarted.invoke(1, .scenesManagement, C.viewScene, Self.key(0, 4))
        #expect(Self.status(view) == .success)
        #expect(
            Self.field(view, 5)?.members?.first
                == Self.fieldSet(.onOff, [(.OnOff.onOff, 1, .unsigned(1))]))
        let other = try restarted.invoke(
            1, .scenesManagement, C.viewScene, Self.key(0, 5), context: .caseSubject(fabric: 2))
        #expect(Self.field(other, 4)?.string == "Named")
        // After a restart no scene is current, yet the stored one recalls.
        #expect(try Self.summary(restarted) == [1, 0, 0, 0, 6])
        try restarted.invoke(1, .levelControl, .LevelControl.moveToLevel, [0: .unsigned(200), 1: .unsigned(0)])
        try restarted.invoke(1, .scenesManagement, C.recallScene, Self.key(0, 4))
        #expect(restarted.currentLevel == 90)
        #expect(try Self.summary(restarted) == [1, 4, 0, 1, 6])
    }

    // MARK: - The global scene

    @Test("OffWithEffect stores the global scene, OnWithRecallGlobalScene recalls it (GlobalSceneControl)")
    func globalScene() throws {
        let bench = try Self.lightOn(.dimmableLight)
        try bench.invoke(1, .levelControl, .LevelControl.moveToLevel, [0: .unsigned(120), 1: .unsigned(0)])
        try bench.invoke(1, .onOff, .OnOff.offWithEffect, [0: .unsigned(0), 1: .unsigned(1)])
        #expect(bench.value(1, .onOff, .OnOff.globalSceneControl) == .bool(false))
        let global = try bench.invoke(1, .scenesManagement, C.viewScene, Self.key(0, 0))
        #expect(Self.status(global) == .success)
        #expect(
            Self.field(global, 5)?.value
                == .array([
                    Self.fieldSet(.onOff, [(.OnOff.onOff, 1, .unsigned(1))]),
                    Self.fieldSet(.levelControl, [(.LevelControl.currentLevel, 1, .unsigned(120))]),
                ]))
        // Another OffWithEffect while GlobalSceneControl is false stores nothing.
        try bench.invoke(1, .levelControl, .LevelControl.moveToLevelWithOnOff, [0: .unsigned(30), 1: .unsigned(0)])
        #expect(bench.currentLevel == 30)
        try bench.invoke(1, .onOff, .OnOff.offWithEffect, [0: .unsigned(0), 1: .unsigned(1)])
        try bench.invoke(1, .onOff, .OnOff.onWithRecallGlobalScene)
        #expect(bench.onOff?.isOn == true)
        #expect(bench.currentLevel == 120)
        #expect(bench.value(1, .onOff, .OnOff.globalSceneControl) == .bool(true))
        #expect(try Self.summary(bench)?[1...3] == [0, 0, 1])  // global scene current and valid
        // While GlobalSceneControl is true the command is discarded.
        try bench.invoke(1, .levelControl, .LevelControl.moveToLevel, [0: .unsigned(10), 1: .unsigned(0)])
        try bench.invoke(1, .onOff, .OnOff.onWithRecallGlobalScene)
        #expect(bench.currentLevel == 10)
    }
}
