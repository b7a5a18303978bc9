import MatterClusters
import MatterController
import MatterCore
import MatterDevice
import MatterOnboarding
import MatterStorage
import MatterTLV
import MatterTestSupport
import Testing

@testable import MatterHome

/// The Home API against the project's virtual devices on loopback UDP.
@Suite("Home API")
struct HomeTests {
    let bed: HomeTestBed

    init() throws { bed = try HomeTestBed() }

    @Test("a new state directory has one structure, no devices; rooms are created and deleted")
    func structureAndRooms() async throws {
        let home = try await bed.openHome()
        let structures = try await home.structures().list()
        #expect(structures.count == 1)
        let structure = try #require(structures.first)
        #expect(structure.name == "Home")
        #expect(try await home.devices().byID().isEmpty)
        let kitchen = try await structure.createRoom(name: "Kitchen")
        _ = try await structure.createRoom(name: "Hall")
        #expect(try await structure.rooms().list().map(\.name).sorted() == ["Hall", "Kitchen"])
        await #expect(throws: HomeError.self) { try await structure.createRoom(name: "kitchen") }
        try await structure.deleteRoom(kitchen)
        #expect(try await structure.rooms().list().map(\.name).sorted() == ["Hall"])
        // The CLI's `rooms create` / `rooms delete` work on the same rooms (RoomRegistry on the store).
        let cli = try RoomRegistry(
            store: ControllerStore(path: ControllerStateDirectory.storePath(in: bed.stateDirectory)))
        _ = try cli.create("Attic")
        #expect(try await structure.rooms().list().map(\.name).sorted() == ["Attic", "Hall"])
        try await structure.deleteRoom(try #require(try await structure.rooms().list().first { $0.name == "Attic" }))
        #expect(try cli.rooms().map(\.name) == ["Hall"])
        let renamed = try await structure.setName("Cottage")
        #expect(renamed.name == "Cottage")
        #expect(try await home.structures().list().first?.name == "Cottage")
        await home.close()
    }

    @Test("Home.configure sets what open() uses; without a state directory open() is a typed error")
    func configure() async throws {
        let error = await #expect(throws: HomeError.self) {
            try await Home.open(configuration: Home.Configuration(stateDirectory: ""))
        }
        #expect(error?.category == .invalidArgument)
        let directory = bed.stateDirectory
        Home.configure {
            $0.stateDirectory = directory
            $0.discovery = .none
        }
        let home = try await Home.open()
        #expect(try await home.structures().list().first?.name == "Home")
        await home.close()
    }

    @Test("commission a dimmable and a colour-temperature light, then the device-control samples")
    func commissionAndControl() async throws {
        let lamp = try await bed.device("dimmable-light", name: "lamp", discriminator: 101)
        let ceiling = try await bed.device("color-temperature-light", name: "ceiling", discriminator: 102)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        let kitchen = try await structure.createRoom(name: "Kitchen")

        try await structure.prepareForMatterCommissioning()
        var stages: [String] = []
        for try await update in structure.commissioningUpdates(onboardingPayload: lamp.qrCode) {
            if case .stageSucceeded(let stage, _) = update { stages.append(stage) }
        }
        #expect(stages.contains("pase") && stages.contains("commissioning-complete"))
        try await structure.configureDevice(named: "Desk lamp", in: kitchen)
        let ceilingID = try await structure.commissionMatterDevice(onboardingPayload: ceiling.setupPayloadManual)
        let ids = try structure.completeMatterCommissioning()
        #expect(ids.count == 2 && ids.last == ceilingID)

        let devices = try await structure.devices().byID()
        #expect(devices.map(\.id) == ids)
        let device = try #require(devices.first)
        #expect(device.name == "Desk lamp")
        #expect(device.room?.name == "Kitchen")

        // Supports, commands, state after each command.
        let light = try #require(await device.types.get(DimmableLightDeviceType.self))
        #expect(await device.types.get(DoorLockDeviceType.self) == nil)
        let onOff = try #require(light.traits[Matter.OnOffTrait.self])
        #expect(onOff.supportsToggleCommand && onOff.supports(.toggle))
        #expect(onOff.attributes.onOff == false)
        try await onOff.toggle()
        #expect(onOff.attributes.onOff == true)
        #expect(await lamp.deviceValue(1, .onOff, .OnOff.onOff) == .bool(true))
        try await onOff.off()
        #expect(onOff.attributes.onOff == false)
        try await onOff.on()
        try await onOff.offWithEffect(
            effectIdentifier: Matter.OnOffTrait.EffectIdentifierEnum.dyingLight, effectVariant: 0)
        #expect(onOff.attributes.onOff == false)

        // MoveToLevel does nothing while the light is off (no ExecuteIfOff): on first.
        let level = try #require(light.matterTraits.levelControlTrait)
        try await level.moveToLevel(
            level: 50, transitionTime: 0, optionsMask: [], optionsOverride: [])
        #expect(level.attributes.currentLevel == 254)
        try await onOff.on()
        try await level.moveToLevel(
            level: UInt8(127), transitionTime: 0, optionsMask: Matter.LevelControlTrait.OptionsBitmap(),
            optionsOverride: Matter.LevelControlTrait.OptionsBitmap())
        #expect(level.attributes.currentLevel == 127)
        #expect(level.supports(.moveToLevelWithOnOff))
        try await level.moveToLevelWithOnOff(level: 200, transitionTime: nil, optionsMask: [], optionsOverride: [])
        #expect(level.attributes.currentLevel == 200)
        #expect(onOff.attributes.onOff == true)

        // Colour temperature to the middle of the physical range.
        let ceilingDevice = try #require(devices.last)
        let colorLight = try #require(await ceilingDevice.types.get(ColorTemperatureLightDeviceType.self))
        let color = try #require(colorLight.matterTraits.colorControlTrait)
        let minMireds = try #require(color.attributes.colorTempPhysicalMinMireds)
        let maxMireds = try #require(color.attributes.colorTempPhysicalMaxMireds)
        let midMireds = UInt16((UInt32(minMireds) + UInt32(maxMireds)) / 2)
        try await color.moveToColorTemperature(
            colorTemperatureMireds: midMireds, transitionTime: 0, optionsMask: [.executeIfOff],
            optionsOverride: [.executeIfOff])
        #expect(color.attributes.colorTemperatureMireds == midMireds)

        // Identify, and moving a device out of its room.
        let identify = try #require(light.matterTraits.identifyTrait)
        #expect(identify.supports(.identify))
        try await identify.identify(identifyTime: 5)
        #expect((identify.attributes.identifyTime ?? 0) > 0)
        try await identify.identify(identifyTime: 0)
        try await structure.move(device, to: nil)
        #expect(try await structure.devices().byID().first?.room == nil)

        // BasicInformation on the root endpoint.
        let root = try #require(await device.types.get(RootNodeDeviceType.self))
        #expect(root.matterTraits.basicInformationTrait?.attributes.productName == "Dimmable Light")
        await home.close()
        await lamp.stop()
        await ceiling.stop()
    }

    @Test("isSupported and isNullable tell 'not supported' from 'supported and null'; update writes")
    func supportAndNull() async throws {
        let ceiling = try await bed.device("color-temperature-light", name: "ceiling", discriminator: 201)
        let lock = try await bed.device("door-lock", name: "lock", discriminator: 202)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        _ = try await commission([ceiling, lock], in: structure)
        let devices = try await home.devices().byID()
        let light = try #require(await devices[0].types.get(ColorTemperatureLightDeviceType.self))
        let onOff = try #require(light.matterTraits.onOffTrait)
        // StartUpOnOff: supported, nullable, and null on a new light.
        #expect(onOff.attributes.startUpOnOff == nil)
        #expect(onOff.attributes.$startUpOnOff.isSupported)
        #expect(onOff.attributes.$startUpOnOff.isNullable)
        #expect(!onOff.attributes.$onOff.isNullable)
        // CurrentX: not on a colour-temperature-only light.
        let color = try #require(light.matterTraits.colorControlTrait)
        #expect(color.attributes.currentX == nil)
        #expect(!color.attributes.$currentX.isSupported)
        try await onOff.update { $0.setStartUpOnOff(.on) }
        #expect(onOff.attributes.startUpOnOff == .on)

        // The lock: no OnOff trait; WrongCodeEntryLimit written through update.
        let lockType = try #require(await devices[1].types.get(DoorLockDeviceType.self))
        #expect(lockType.matterTraits.onOffTrait == nil)
        let doorLock = try #require(lockType.matterTraits.doorLockTrait)
        #expect(doorLock.attributes.$wrongCodeEntryLimit.isSupported)
        if doorLock.attributes.$wrongCodeEntryLimit.isSupported {
            let _ = try await doorLock.update { $0.setWrongCodeEntryLimit(3) }
        }
        #expect(doorLock.attributes.wrongCodeEntryLimit == 3)
        try await doorLock.lockDoor()
        #expect(doorLock.attributes.lockState == .locked)
        try await doorLock.unlockDoor()
        #expect(doorLock.attributes.lockState == .unlocked)
        await home.close()
        await ceiling.stop()
        await lock.stop()
    }

    @Test("an attribute changed by another controller reaches the trait through the subscription")
    func liveUpdate() async throws {
        let lamp = try await bed.device("dimmable-light", name: "lamp", discriminator: 301)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        let ids = try await commission([lamp], in: structure)
        let device = try #require(try await home.devices().byID().first)
        let onOff = try #require(await device.types.get(DimmableLightDeviceType.self)?.matterTraits.onOffTrait)
        #expect(onOff.attributes.onOff == false)
        let other = try await bed.otherController()
        try await other.on(NodeID(UInt64(ids[0]) ?? 0))
        #expect(await eventually(device) { onOff.attributes.onOff == true })
        try await other.moveToLevel(NodeID(UInt64(ids[0]) ?? 0), level: 42)
        let level = try #require(await device.types.get(DimmableLightDeviceType.self)?.matterTraits.levelControlTrait)
        #expect(await eventually(device) { level.attributes.currentLevel == 42 })
        await other.stop()
        await home.close()
        await lamp.stop()
    }

    @Test("after the device restarts, the home subscribes again and follows its state")
    func resubscribe() async throws {
        let lamp = try await bed.device("dimmable-light", name: "lamp", discriminator: 601)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        let ids = try await commission([lamp], in: structure)
        let nodeID = NodeID(try #require(UInt64(ids[0])))
        let device = try #require(try await home.devices().byID().first)
        let onOff = try #require(await device.types.get(DimmableLightDeviceType.self)?.matterTraits.onOffTrait)
        try await onOff.on()
        let port = lamp.port
        await lamp.stop()
        // The same device (same state, same port) comes back; another controller turns it off.
        let again = try await bed.device("dimmable-light", name: "lamp", discriminator: 601, port: port)
        let other = try await bed.otherController()
        try await other.off(nodeID)
        // The loss shows after MaxInterval (2 s) plus the client's 10 s liveness allowance.
        #expect(await eventually(device, limit: .seconds(60)) { onOff.attributes.onOff == false })
        try await other.on(nodeID)
        #expect(await eventually(device) { onOff.attributes.onOff == true })
        await other.stop()
        await home.close()
        await again.stop()
    }
}
