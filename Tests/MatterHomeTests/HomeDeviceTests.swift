import MatterClusters
import MatterController
import MatterCore
import MatterDevice
import MatterTestSupport
import Testing

@testable import MatterHome

/// HomeDevice's management: IDs, connectivity, names, moves, decommissioning.
@Suite("Home API devices")
struct HomeDeviceTests {
    let bed: HomeTestBed

    init() throws { bed = try HomeTestBed() }

    /// Polls `condition` (the state it reads is not signalled).
    func becomes(_ condition: () async -> Bool) async -> Bool {
        await MatterTestSupport.eventually(within: .seconds(30), every: .milliseconds(100)) { await condition() }
    }

    @Test("IDs, Matter, online while the subscription holds and offline once the device is gone; Hashable")
    func identityAndConnectivity() async throws {
        let lamp = try await bed.device("dimmable-light", name: "lamp", discriminator: 601)
        let plug = try await bed.device("on-off-plug", name: "plug", discriminator: 602)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        _ = try await commission([lamp, plug], in: structure)
        let devices = try await home.devices().byID()
        #expect(Set(devices).count == 2)
        #expect(Set(devices) == Set(try await home.devices().byID()))
        #expect(Set([structure, try #require(try await home.structures().list().first)]).count == 1)
        for device in devices {
            #expect(device.structureID == structure.id && device.isMatterDevice && device.roomID == nil)
            #expect(await becomes { device.sourceConnectivity.connectivityState == .online })
            #expect(device.sourceConnectivity.dataSourceLocality == .local)
        }
        await plug.stop()
        let gone = try #require(devices.first { $0.name != "lamp" && $0.id != devices[0].id } ?? devices.last)
        #expect(await becomes { gone.sourceConnectivity.connectivityState == .offline })
        #expect(devices[0].sourceConnectivity.connectivityState == .online)
        await home.close()
        await lamp.stop()
    }

    @Test("setName renames in the store the CLI shares; move by objects and by IDs; deleteRoom(id:)")
    func nameAndRooms() async throws {
        let lamp = try await bed.device("dimmable-light", name: "lamp", discriminator: 611)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        _ = try await commission([lamp], in: structure)
        let device = try #require(try await home.devices().byID().first)
        let renamed = try await device.setName("Desk lamp")
        #expect(renamed.name == "Desk lamp" && renamed.id == device.id && renamed != device)
        #expect(try await home.devices().byID().first?.name == "Desk lamp")
        let taken = await #expect(throws: HomeError.self) { try await device.setName("12") }
        #expect(taken?.code == .invalidArgument)

        let kitchen = try await structure.createRoom(name: "Kitchen")
        let hall = try await structure.createRoom(name: "Hall")
        #expect(kitchen.structureID == structure.id)
        try await structure.move(device: renamed, to: kitchen)
        #expect(try await home.devices().byID().first?.roomID == kitchen.id)
        try await structure.move(device: renamed.id, to: hall.id)
        #expect(try await home.devices().byID().first?.roomID == hall.id)
        let noRoom = await #expect(throws: HomeError.self) { try await structure.move(device: renamed.id, to: "attic") }
        #expect(noRoom?.code == .notFound)
        let noDevice = await #expect(throws: HomeError.self) { try await structure.move(device: "99", to: hall.id) }
        #expect(noDevice?.code == .notFound)
        try await structure.deleteRoom(id: hall.id)
        #expect(try await home.devices().byID().first?.roomID == nil)
        let gone = await #expect(throws: HomeError.self) { try await structure.move(device: renamed, to: hall) }
        #expect(gone?.code == .notFound)
        #expect(try await structure.rooms().list().map(\.id) == [kitchen.id])
        #expect(try await structure.rooms().list().map(\.id) == [kitchen.id])
        await home.close()
        await lamp.stop()
    }

    @Test("forceRead reads a cluster now; commands take their optional fields in a closure")
    func forceReadAndClosures() async throws {
        let lamp = try await bed.device("on-off-light", name: "lamp", discriminator: 631)
        let lock = try await bed.device("door-lock", name: "lock", discriminator: 632)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        _ = try await commission([lamp, lock], in: structure)
        let devices = try await home.devices().byID()
        let onOff = try #require(await devices[0].types.get(OnOffLightDeviceType.self)?.matterTraits.onOffTrait)
        #expect(onOff.attributes.onOff == false)
        // Another administrator switches it on; forceRead sees it without waiting for the subscription.
        let other = try await bed.otherController()
        let node = try #require(UInt64(devices[0].id))
        _ = try await other.invoke(NodeID(node), endpoint: EndpointID(1), cluster: .onOff, command: .OnOff.on)
        #expect(try await onOff.forceRead().attributes.onOff == true)
        await other.stop()

        let doorLock = try #require(await devices[1].types.get(DoorLockDeviceType.self)?.matterTraits.doorLockTrait)
        // The PIN reaches the lock: no user has it, so the lock refuses with FAILURE (and stays unlocked).
        let wrong = await #expect(throws: HomeError.self) {
            try await doorLock.lockDoor { $0.setPinCode(Array("1234".utf8)) }
        }
        #expect(wrong?.subcodes == [0x01])
        try await doorLock.lockDoor { _ in }
        #expect(doorLock.attributes.lockState == .locked)
        try await doorLock.unlockDoor { _ in }
        #expect(doorLock.attributes.lockState == .unlocked)

        let group = try await structure.createDeviceGroup(name: "both", devices: devices)
        let part = try #require(await group.part(OnOffLightDeviceType.self)?.matterTraits.onOffTrait)
        let refused = await #expect(throws: HomeError.self) { try await part.forceRead() }
        #expect(refused?.code == .invalidArgument)
        await home.close()
        await lamp.stop()
        await lock.stop()
    }

    @Test("decommission removes our fabric from the device, then forgets it; an unreachable one only when told")
    func decommission() async throws {
        let lamp = try await bed.device("dimmable-light", name: "lamp", discriminator: 621)
        let plug = try await bed.device("on-off-plug", name: "plug", discriminator: 622)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        let ids = try await commission([lamp, plug], in: structure)
        let devices = try await home.devices().byID()
        let first = try #require(devices.first { $0.id == ids[0] })
        let second = try #require(devices.first { $0.id == ids[1] })
        #expect(await first.decommissionEligibility == .eligible)
        #expect(try await first.decommission() == [first.id])
        #expect(await lamp.fabrics().isEmpty)
        #expect(await first.decommissionEligibility == .ineligible)
        #expect(try await home.devices().byID().map(\.id) == [second.id])

        await plug.stop()
        let refused = await #expect(throws: HomeError.self) { try await second.decommission() }
        #expect(refused?.code == .unavailable)
        #expect(try await home.devices().byID().map(\.id) == [second.id])
        #expect(try await second.decommission(forgettingUnreachable: true) == [second.id])
        #expect(try await home.devices().byID().isEmpty)
        await home.close()
        await lamp.stop()
    }
}
