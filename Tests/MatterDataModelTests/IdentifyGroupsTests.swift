import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import MatterTestSupport
import Testing

@Suite("Identify and Groups")
struct IdentifyGroupsTests {
    typealias G = CommandID.Groups

    @Test func identifyCountsDownOnceASecond() throws {
        let bench = try Bench(.onOffLight)
        #expect(bench.value(1, .identify, .Identify.identifyType) == .unsigned(1))
        try bench.invoke(1, .identify, .Identify.identify, [0: .unsigned(3)])
        #expect(bench.value(1, .identify, .Identify.identifyTime) == .unsigned(3))
        bench.advance(999)
        #expect(bench.value(1, .identify, .Identify.identifyTime) == .unsigned(3))
        bench.advance(1)
        #expect(bench.value(1, .identify, .Identify.identifyTime) == .unsigned(2))
        bench.advance(2000)
        #expect(bench.value(1, .identify, .Identify.identifyTime) == .unsigned(0))
        #expect(bench.model.nextTimerDeadline == nil)
        #expect(bench.log == ["identify 1: 3 s", "identify 1: stopped"])
        // Writing IdentifyTime starts it too; 0 stops it.
        #expect(bench.write(1, .identify, .Identify.identifyTime, .unsigned(10)) == .success)
        bench.advance(1000)
        #expect(bench.value(1, .identify, .Identify.identifyTime) == .unsigned(9))
        try bench.invoke(1, .identify, .Identify.identify, [0: .unsigned(0)])
        #expect(bench.model.nextTimerDeadline == nil)
        #expect(bench.write(1, .identify, .Identify.identifyTime, .utf8("9")) == .invalidDataType)
        #expect(bench.status(1, .identify, .Identify.identify) == .invalidCommand)
    }

    @Test func triggerEffect() throws {
        let bench = try Bench(.onOffLight)
        let identify = try #require(bench.model.cluster(IdentifyServer.self, on: EndpointID(1)))
        try bench.invoke(1, .identify, .Identify.triggerEffect, [0: .unsigned(1), 1: .unsigned(0)])
        #expect(identify.currentEffect == .breathe)
        try bench.invoke(1, .identify, .Identify.triggerEffect, [0: .unsigned(0xFF), 1: .unsigned(0)])
        #expect(identify.currentEffect == nil)
        #expect(
            bench.status(1, .identify, .Identify.triggerEffect, [0: .unsigned(0x05), 1: .unsigned(0)])
                == .constraintError)
        #expect(bench.log == ["identify 1: effect breathe", "identify 1: effect stopped"])
    }

    func groupStatus(_ response: CommandResponse?) -> UInt64? {
        response?.fields.members?.first { $0.tag == .context(0) }?.uint
    }

    @Test func addViewMembershipRemove() throws {
        let bench = try Bench(.onOffLight)
        var changedFabrics: [UInt8] = []
        bench.model.groupTable.onChange = { changedFabrics.append($0) }
        #expect(bench.value(1, .groups, .Groups.nameSupport) == .unsigned(0x80))

        let added = try bench.invoke(1, .groups, G.addGroup, [0: .unsigned(0x0101), 1: .utf8("Kitchen")])
        #expect(added?.command == G.addGroupResponse)
        #expect(added?.fields == fields([0: .unsigned(0), 1: .unsigned(0x0101)]).value)
        try bench.invoke(1, .groups, G.addGroup, [0: .unsigned(0x0102), 1: .utf8("")])

        let viewed = try bench.invoke(1, .groups, G.viewGroup, [0: .unsigned(0x0101)])
        #expect(viewed?.fields == fields([0: .unsigned(0), 1: .unsigned(0x0101), 2: .utf8("Kitchen")]).value)
        let missing = try bench.invoke(1, .groups, G.viewGroup, [0: .unsigned(0x0999)])
        #expect(groupStatus(missing) == UInt64(IMStatus.notFound.rawValue))

        let all = try bench.invoke(1, .groups, G.getGroupMembership, [0: .array([])])
        #expect(all?.command == G.getGroupMembershipResponse)
        #expect(
            all?.fields
                == fields([
                    0: .unsigned(10),
                    1: .array([TLVElement(.unsigned(0x0101)), TLVElement(.unsigned(0x0102))]),
                ]).value)
        let some = try bench.invoke(
            1, .groups, G.getGroupMembership, [0: .array([TLVElement(.unsigned(0x0102)), TLVElement(.unsigned(7))])])
        #expect(some?.fields.members?.last == TLVElement(tag: .context(1), .array([TLVElement(.unsigned(0x0102))])))

        let removed = try bench.invoke(1, .groups, G.removeGroup, [0: .unsigned(0x0101)])
        #expect(removed?.command == G.removeGroupResponse)
        #expect(groupStatus(removed) == 0)
        #expect(groupStatus(try bench.invoke(1, .groups, G.removeGroup, [0: .unsigned(0x0101)])) == 0x8B)
        try bench.invoke(1, .groups, G.removeAllGroups)
        #expect(bench.model.groupTable.entries(fabric: 1).isEmpty)
        #expect(changedFabrics == [1, 1, 1, 1])
    }

    @Test func groupRulesAndFailures() throws {
        let bench = try Bench(.onOffLight)
        let add = { (group: UInt64, name: String, context: InteractionContext) throws(StatusIB) -> UInt64? in
            self.groupStatus(
                try bench.invoke(1, .groups, G.addGroup, [0: .unsigned(group), 1: .utf8(name)], context: context))
        }
        #expect(try add(0, "zero", .caseSubject()) == 0x87)
        #expect(try add(5, String(repeating: "n", count: 17), .caseSubject()) == 0x87)
        #expect(try add(5, "Hall", .caseSubject()) == 0)
        // Fabric 2 sees nothing of fabric 1's groups.
        let other = InteractionContext.caseSubject(fabric: 2, node: 99)
        #expect(groupStatus(try bench.invoke(1, .groups, G.viewGroup, [0: .unsigned(5)], context: other)) == 0x8B)
        // Without a group key: UNSUPPORTED_ACCESS.
        bench.model.groupTable.keyExists = { fabric, group in fabric == 1 || group.rawValue == 6 }
        #expect(try add(7, "", other) == 0x7E)
        #expect(try add(6, "", other) == 0)
        // A full table.
        bench.model.groupTable.maxGroupsPerFabric = 2
        #expect(try add(8, "", .caseSubject()) == 0)
        #expect(try add(9, "", .caseSubject()) == 0x89)
        // Renaming an existing group is fine even when full.
        #expect(try add(8, "Renamed", .caseSubject()) == 0)
        #expect(bench.model.groupTable.entry(fabric: 1, group: GroupID(8))?.name == "Renamed")
        #expect(bench.status(1, .groups, G.addGroup, [0: .unsigned(5)]) == .invalidCommand)
        bench.model.groupTable.removeFabric(1)
        #expect(bench.model.groupTable.entries(fabric: 1).isEmpty)
        #expect(bench.model.groupTable.entries(fabric: 2).map(\.groupID) == [GroupID(6)])
    }

    @Test func addGroupIfIdentifyingNeedsIdentify() throws {
        let bench = try Bench(.onOffLight)
        try bench.invoke(1, .groups, G.addGroupIfIdentifying, [0: .unsigned(3), 1: .utf8("x")])
        #expect(bench.model.groupTable.entries(fabric: 1).isEmpty)
        try bench.invoke(1, .identify, .Identify.identify, [0: .unsigned(5)])
        try bench.invoke(1, .groups, G.addGroupIfIdentifying, [0: .unsigned(3), 1: .utf8("x")])
        #expect(bench.model.groupTable.groups(fabric: 1, endpoint: EndpointID(1)) == [GroupID(3)])
        #expect(
            bench.status(1, .groups, G.addGroupIfIdentifying, [0: .unsigned(0), 1: .utf8("x")]) == .constraintError)
    }

    @Test func groupsOnTwoEndpointsShareTheTable() throws {
        let bench = try Bench(.onOffLight)
        try bench.model.add(DevicePreset.onOffLight.makeApplicationEndpoints(from: EndpointID(2))[0])
        try bench.invoke(1, .groups, G.addGroup, [0: .unsigned(4), 1: .utf8("All")])
        try bench.invoke(2, .groups, G.addGroup, [0: .unsigned(4), 1: .utf8("All")])
        #expect(
            bench.model.groupTable.entry(fabric: 1, group: GroupID(4))?.endpoints == [EndpointID(1), EndpointID(2)])
        try bench.invoke(1, .groups, G.removeGroup, [0: .unsigned(4)])
        #expect(bench.model.groupTable.entry(fabric: 1, group: GroupID(4))?.endpoints == [EndpointID(2)])
    }
}

@Suite("Groups survive a restart")
struct GroupPersistenceTests {
    typealias G = CommandID.Groups

    @Test("the group table is stored: groups, names and members per fabric come back after a reboot")
    func groupsComeBack() throws {
        let bench = try Bench(.onOffLight)
        let other = InteractionContext.caseSubject(fabric: 2)
        try bench.invoke(1, .groups, G.addGroup, [0: .unsigned(0x0101), 1: .utf8("Kitchen")])
        try bench.invoke(1, .groups, G.addGroup, [0: .unsigned(0x0102), 1: .utf8("")])
        try bench.invoke(1, .groups, G.addGroup, [0: .unsigned(0x0201), 1: .utf8("Hall")], context: other)
        try bench.invoke(1, .groups, G.removeGroup, [0: .unsigned(0x0102)])
        let restarted = try bench.reboot(.onOffLight)
        let table = restarted.model.groupTable
        #expect(
            table.entries(fabric: 1) == [
                GroupTable.Entry(groupID: GroupID(0x0101), name: "Kitchen", endpoints: [EndpointID(1)])
            ])
        #expect(
            table.entries(fabric: 2) == [
                GroupTable.Entry(groupID: GroupID(0x0201), name: "Hall", endpoints: [EndpointID(1)])
            ])
        let viewed = try restarted.invoke(1, .groups, G.viewGroup, [0: .unsigned(0x0101)])
        #expect(viewed?.fields.members?.first { $0.tag == .context(2) }?.string == "Kitchen")
        // A removed fabric's groups stay removed after the next restart.
        restarted.model.fabricRemoved(2)
        #expect(try restarted.reboot(.onOffLight).model.groupTable.fabrics == [1])
    }
}
