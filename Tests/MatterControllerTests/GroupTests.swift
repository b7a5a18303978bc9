import MatterController
import MatterCore
import MatterDevice
import MatterStorage
import MatterTestSupport
import Testing

@Suite("Group fan-out")
struct GroupTests {
    /// Three commissioned virtual dimmable lights (nodes 1...3) in group "lights", endpoint 1 each.
    func setUp(_ bed: TestBed) async throws -> ([VirtualDevice], Controller) {
        let controller = try await bed.controller()
        var devices: [VirtualDevice] = []
        try controller.store.createGroup("lights")
        for index in 1...3 {
            let device = try await bed.device()
            _ = try await controller.commission(device.request(nodeID: NodeID(UInt64(index))))
            try controller.store.addToGroup("lights", nodeID: NodeID(UInt64(index)), endpoint: EndpointID(1))
            devices.append(device)
        }
        return (devices, controller)
    }

    @Test("a command to a group with one member down succeeds and reports that member's failure")
    func oneMemberDown() async throws {
        let bed = try TestBed()
        let (devices, controller) = try await setUp(bed)
        await devices[1].stop()
        let result = try await controller.forEachMember(of: "lights") { controller, member throws(ControllerError) in
            try await controller.on(member.nodeID, endpoint: member.endpoint)
        }
        #expect(result.members.map(\.member.nodeID) == [NodeID(1), NodeID(2), NodeID(3)])
        #expect(result.successCount == 2)
        #expect(result.failures.map(\.member.nodeID) == [NodeID(2)])
        #expect(result.failures.first?.error?.category == .unreachable)
        #expect(await devices[0].state().onOff == true)
        #expect(await devices[2].state().onOff == true)
        await controller.stop()
        for device in devices { await device.stop() }
    }

    @Test("a command to a group fails when every member fails")
    func allMembersDown() async throws {
        let bed = try TestBed()
        let (devices, controller) = try await setUp(bed)
        for device in devices { await device.stop() }
        let error = await #expect(throws: ControllerError.self) {
            try await controller.forEachMember(of: "LIGHTS") { controller, member throws(ControllerError) in
                try await controller.on(member.nodeID, endpoint: member.endpoint)
            }
        }
        guard case .allMembersFailed(let group, let failures, let category)? = error else {
            Issue.record("expected allMembersFailed, got \(String(describing: error))")
            return
        }
        #expect(group == "lights")
        #expect(failures.count == 3)
        #expect(category == .unreachable)
        #expect(error?.category == .unreachable)
        await controller.stop()
    }

    @Test("a group command reaches 70 members at once, each needing a new CASE session")
    func moreMembersThanADeviceHasSessions() async throws {
        // A transport node keeps 64 handshakes and 64 sessions by default (a device's sizes); the
        // controller's own are larger, or the 65th handshake would evict one still in flight.
        let bed = try TestBed()
        let controller = try await bed.controller()
        try controller.store.createGroup("hall")
        var devices: [VirtualDevice] = []
        for index in 1...70 {
            let device = try await bed.device()
            _ = try await controller.commission(device.request(nodeID: NodeID(UInt64(index))))
            try controller.store.addToGroup("hall", nodeID: NodeID(UInt64(index)), endpoint: EndpointID(1))
            await controller.closeSession(NodeID(UInt64(index)))
            devices.append(device)
        }
        let result = try await controller.forEachMember(of: "hall") { controller, member throws(ControllerError) in
            try await controller.on(member.nodeID, endpoint: member.endpoint)
        }
        #expect(result.successCount == 70)
        #expect(result.failures.count == 0, "\(result.failures.compactMap(\.error).prefix(3))")
        var on = 0
        for device in devices where await device.state().onOff == true { on += 1 }
        #expect(on == 70)
        await controller.stop()
        for device in devices { await device.stop() }
    }

    @Test("an empty or unknown group is an invalid argument")
    func emptyGroup() async throws {
        let bed = try TestBed()
        let controller = try await bed.controller()
        try controller.store.createGroup("nobody")
        for name in ["nobody", "missing"] {
            let error = await #expect(throws: ControllerError.self) {
                try await controller.forEachMember(of: name) { controller, member throws(ControllerError) in
                    try await controller.on(member.nodeID)
                }
            }
            #expect(error?.category == .invalidArgument)
        }
        await controller.stop()
    }
}
