import MatterClusters
import MatterCore
import MatterDevice
import MatterTestSupport
import Testing

@testable import MatterHome

/// Events through the Home API: typed, numbered, and none lost or repeated across an absence.
@Suite("Home API events")
struct HomeEventTests {
    let bed: HomeTestBed

    init() throws { bed = try HomeTestBed() }

    typealias Alarm = Clusters.DoorLock.Events.DoorLockAlarm
    typealias Operation = Clusters.DoorLock.Events.LockOperation

    @Test("a door lock's LockOperation and DoorLockAlarm events arrive typed; those of an absence arrive after it")
    func doorLockEvents() async throws {
        let device = try await bed.device("door-lock", name: "lock", discriminator: 801)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        _ = try await commission([device], in: structure)
        let lock = try #require(await home.devices().list().first?.types.get(DoorLockDeviceType.self))
        let trait = try #require(lock.matterTraits.doorLockTrait)

        // The subscription starts in the background: the events of the call on, not the log before it.
        // Lock and unlock until its first event comes (a hang guard, not a timing check).
        let operations = Recorder(lock.events.subscribe(Operation.self))
        var first: HomeEvent<Operation>?
        for attempt in 0..<30 where first == nil {
            if attempt % 2 == 0 { try await trait.lockDoor() } else { try await trait.unlockDoor() }
            first = await operations.next(within: .milliseconds(500))
        }
        let seen = try #require(first)
        #expect(seen.priority == .critical)  // LockOperation is a critical event
        #expect(seen.event.operationSource == .remote)
        try await trait.lockDoor()
        try await trait.unlockDoor()
        var following: [HomeEvent<Operation>] = []
        while following.count < 2, let next = await operations.next() { following.append(next) }
        // Every event at most once, in order (the warm-up may leave one more in flight before these).
        #expect(following.map(\.eventNumber) == following.map(\.eventNumber).sorted())
        #expect(following.allSatisfy { $0.eventNumber > seen.eventNumber })
        #expect(following.last?.event.lockOperationType == .unlock)

        // Alarms, with the device's history: every jam is one event, whenever the subscription began. Two
        // jams, then three while the device is offline (the home's subscription lapses and comes back).
        let alarms = Recorder(lock.events.subscribe(Alarm.self, includingHistory: true))
        for _ in 0..<2 { #expect(await device.control(#"{"op":"jam"}"#).contains(#""ok":true"#)) }
        var received: [HomeEvent<Alarm>] = []
        while received.count < 2, let next = await alarms.next() { received.append(next) }
        #expect(received.count == 2)
        #expect(received.first?.event.alarmCode == .lockJammed && received.first?.priority == .critical)
        #expect(await device.control(#"{"op":"offline"}"#).contains(#""ok":true"#))
        // Away long enough for the home to notice (its subscriptions lapse; the events' one resubscribes with
        // the next event number it needs).
        let member = try #require(try await home.devices().list().first)
        #expect(
            await MatterTestSupport.eventually(within: .seconds(60), every: .milliseconds(100)) {
                member.sourceConnectivity.connectivityState == .offline
            })
        for _ in 0..<3 { #expect(await device.control(#"{"op":"jam"}"#).contains(#""ok":true"#)) }
        #expect(await device.control(#"{"op":"online"}"#).contains(#""ok":true"#))
        while received.count < 5, let next = await alarms.next(within: .seconds(60)) { received.append(next) }
        let numbers = received.map(\.eventNumber)
        #expect(numbers.count == 5 && Set(numbers).count == 5 && numbers == numbers.sorted(), "\(numbers)")
        // None twice: nothing more comes after the five (the subscription is back; another jam is the sixth).
        #expect(await device.control(#"{"op":"jam"}"#).contains(#""ok":true"#))
        let sixth = await alarms.next(within: .seconds(60))
        #expect(sixth.map { $0.eventNumber > (numbers.last ?? 0) } == true)

        // A device type without the event: the sequence fails with the device's status.
        let absent = Recorder(lock.events.subscribe(Clusters.BooleanState.Events.StateChange.self))
        #expect(await absent.next(within: .seconds(30)) == nil)
        #expect(absent.failure?.code == .notFound)
        await home.close()
        await device.stop()
    }
}
