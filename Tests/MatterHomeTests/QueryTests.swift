import MatterCore
import MatterDevice
import MatterTestSupport
import Synchronization
import Testing

@testable import MatterHome

/// What a sequence yields, kept in order by a task of its own; ``next(within:)`` takes them one by one.
final class Recorder<Element: Sendable>: Sendable {
    private struct State {
        var items: [Element] = []
        var read = 0
        var finished = false
        var failure: HomeError?
    }
    private let state = Mutex(State())
    private let task = Mutex<Task<Void, Never>?>(nil)

    init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
        let consumer = Task { [weak self] in
            do {
                for try await element in sequence { self?.state.withLock { $0.items.append(element) } }
            } catch {
                self?.state.withLock { $0.failure = error as? HomeError }
            }
            self?.state.withLock { $0.finished = true }
        }
        task.withLock { $0 = consumer }
    }

    deinit { task.withLock { $0?.cancel() } }

    /// The error the sequence ended with, if it was a HomeError.
    var failure: HomeError? { state.withLock { $0.failure } }

    /// The next element, or nil when the sequence ended or none came within `limit` (a hang guard: the
    /// change it waits for was made just before).
    func next(within limit: Duration = .seconds(30)) async -> Element? {
        _ = await eventually(within: limit, every: .milliseconds(20)) {
            state.withLock { $0.items.count > $0.read || $0.finished }
        }
        return state.withLock { s in
            guard s.items.count > s.read else { return nil }
            defer { s.read += 1 }
            return s.items[s.read]
        }
    }
}

/// Queries: list, batched and stream see what this home, another process and the CLI change.
@Suite("Home API queries")
struct QueryTests {
    let bed: HomeTestBed

    init() throws { bed = try HomeTestBed() }

    @Test("batched() and stream() see a device commissioned by another process, renamed, moved and decommissioned")
    func devicesChange() async throws {
        let lamp = try await bed.device("dimmable-light", name: "lamp", discriminator: 701)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        #expect(try await home.devices().list().isEmpty)
        let batch = Recorder(home.devices().batched())
        let element = Recorder(structure.devices().stream())
        #expect(await batch.next() == [])

        // Another process (the CLI) commissions the lamp into the same state directory.
        let paired = try await ProcessRunner.runMatterEmu([
            "pairing", "already-discovered", "7", "20202021", "127.0.0.1", String(lamp.port), "--state-dir",
            bed.stateDirectory,
        ])
        #expect(paired.exitCode == 0, "\(paired.stderr)")
        let commissioned = try #require(await batch.next())
        #expect(commissioned.map(\.id) == ["7"])
        #expect(await element.next()?.id == "7")

        let device = try #require(commissioned.first)
        let renamed = try await device.setName("Lamp")
        #expect(await batch.next()?.first?.name == "Lamp")
        #expect(await element.next()?.name == "Lamp")

        let kitchen = try await structure.createRoom(name: "Kitchen")
        try await structure.move(device: renamed, to: kitchen)
        #expect(await batch.next()?.first?.roomID == kitchen.id)
        #expect(await element.next()?.roomID == kitchen.id)

        try await renamed.decommission()
        #expect(await batch.next() == [])
        #expect(await lamp.fabrics().isEmpty)
        await home.close()
        await lamp.stop()
    }

    @Test("device.types: contains, getAll(of:) on a bridge of three lights, count, subscribe to one type's changes")
    func typesController() async throws {
        let bridge = try await bed.device(
            "aggregator", name: "bridge", discriminator: 711, bridged: [(type: "on-off-light", count: 3)])
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        _ = try await commission([bridge], in: structure)
        let device = try #require(try await home.devices().list().first)
        #expect(await device.types.contains(OnOffLightDeviceType.self))
        #expect(!(await device.types.contains(DoorLockDeviceType.self)))
        let lights = await device.types.getAll(of: OnOffLightDeviceType.self)
        #expect(lights.count == 3)
        // Root Node and Aggregator, then each light with its Bridged Node.
        #expect(await device.types.count == 2 + 3 * 2)
        let light = Recorder(device.types.subscribe(OnOffLightDeviceType.self))
        #expect(await light.next()?.matterTraits.onOffTrait?.attributes.onOff == false)
        try await #require(lights.first?.matterTraits.onOffTrait).on()
        var seen = false
        while let next = await light.next() {
            if next.matterTraits.onOffTrait?.attributes.onOff == true {
                seen = true
                break
            }
        }
        #expect(seen)
        await home.close()
        await bridge.stop()
    }

    @Test("rooms and structures: a room created by the CLI, one deleted; the structure renamed")
    func roomsAndStructures() async throws {
        let home = try await bed.openHome()
        let room = Recorder(home.rooms().batched())
        #expect(await room.next() == [])
        let created = try await ProcessRunner.runMatterEmu([
            "rooms", "create", "Attic", "--state-dir", bed.stateDirectory,
        ])
        #expect(created.exitCode == 0, "\(created.stderr)")
        #expect(await room.next()?.map(\.name) == ["Attic"])
        let structure = try #require(try await home.structures().list().first)
        try await structure.deleteRoom(id: "attic")
        #expect(await room.next() == [])

        let each = Recorder(home.structures().stream())
        #expect(await each.next()?.name == "Home")
        _ = try await structure.setName("Cottage")
        #expect(await each.next()?.name == "Cottage")
        await home.close()
        // Closing the home ends its sequences.
        #expect(await each.next() == nil)
    }
}
