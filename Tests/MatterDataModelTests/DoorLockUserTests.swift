import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import MatterTestSupport
import Testing

/// Door Lock users, PIN credentials, schedules, the PIN on remote operations, the wrong-code lock-out
/// and auto-relock: the cases of the SDK's DRLK certification tests, on the manual clock.
@Suite("Door Lock users and credentials")
struct DoorLockUserTests {
    typealias A = AttributeID.DoorLock
    typealias C = CommandID.DoorLock

    static func credential(_ index: UInt16) -> TLVValue {
        .structure([TLVElement(tag: .context(0), .unsigned(1)), TLVElement(tag: .context(1), .unsigned(UInt64(index)))])
    }

    /// SetCredential(Add, PIN `index`, `pin`) for `user` (nil: a new user); the response's fields.
    @discardableResult
    static func addPIN(_ bench: Bench, _ index: UInt16, _ pin: String, user: UInt16?) throws -> TLVElement? {
        let response = try bench.invoke(
            1, .doorLock, C.setCredential,
            [
                0: .unsigned(0), 1: credential(index), 2: .bytes(Array(pin.utf8)),
                3: user.map { .unsigned(UInt64($0)) } ?? .null, 4: .null, 5: .null,
            ])
        return response.map { TLVElement($0.fields) }
    }

    static func setUser(_ bench: Bench, _ operation: UInt64, _ index: UInt16, name: TLVValue = .null) -> IMStatus {
        bench.status(
            1, .doorLock, C.setUser,
            [0: .unsigned(operation), 1: .unsigned(UInt64(index)), 2: name, 3: .null, 4: .null, 5: .null, 6: .null])
    }

    func events(_ bench: Bench, after count: Int) -> [EventID] {
        bench.model.eventRecords(from: 0).dropFirst(count).map(\.path.event)
    }

    @Test("the features and limits a DRLK test reads")
    func featuresAndLimits() throws {
        let bench = try Bench(.doorLock)
        let features = try #require(bench.model.cluster(.doorLock, on: EndpointID(1))?.featureMap)
        #expect(features == 0x0591)  // PIN, WDSCH, COTA, USR, YDSCH
        #expect(bench.value(1, .doorLock, A.numberOfTotalUsersSupported) == .unsigned(10))
        #expect(bench.value(1, .doorLock, A.numberOfPINUsersSupported) == .unsigned(10))
        #expect(bench.value(1, .doorLock, A.minPINCodeLength) == .unsigned(4))
        #expect(bench.value(1, .doorLock, A.maxPINCodeLength) == .unsigned(8))
        #expect(bench.value(1, .doorLock, A.credentialRulesSupport) == .unsigned(1))
        #expect(bench.value(1, .doorLock, A.requirePINForRemoteOperation) == .bool(false))
        #expect(bench.value(1, .doorLock, A.userCodeTemporaryDisableTime) == .unsigned(10))
        #expect(bench.value(1, .doorLock, A.autoRelockTime) == .unsigned(0))
    }

    @Test("SetUser, GetUser, ClearUser: add, occupied, modify, next index, clear one and all; persisted")
    func users() throws {
        let bench = try Bench(.doorLock)
        let before = bench.model.eventRecords(from: 0).count
        #expect(Self.setUser(bench, 0, 3, name: .utf8("alice")) == .success)
        #expect(Self.setUser(bench, 0, 3) == .failure)  // Occupied: a cluster-specific failure
        #expect(
            bench.statusIB(
                1, .doorLock, C.setUser,
                [
                    0: .unsigned(0), 1: .unsigned(3), 2: .null, 3: .null, 4: .null, 5: .null, 6: .null,
                ])?.clusterStatus == 3)
        #expect(Self.setUser(bench, 0, 0) == .invalidCommand)
        #expect(Self.setUser(bench, 0, 11) == .invalidCommand)
        #expect(Self.setUser(bench, 2, 4) == .invalidCommand)  // Modify of a free index
        #expect(Self.setUser(bench, 1, 3) == .invalidCommand)  // Clear is not SetUser's
        #expect(Self.setUser(bench, 0, 5, name: .utf8("a-very-long-name")) == .invalidCommand)
        #expect(Self.setUser(bench, 0, 7, name: .utf8("bob")) == .success)
        #expect(Self.setUser(bench, 2, 3, name: .utf8("alicia")) == .success)

        let user = try #require(try bench.invoke(1, .doorLock, C.getUser, [0: .unsigned(3)])).fields
        let fields = TLVElement(user)
        #expect(fields[context: 1]?.value == .utf8("alicia"))
        #expect(fields[context: 3]?.value == .unsigned(1))  // OccupiedEnabled
        #expect(fields[context: 6]?.value == .array([]))
        #expect(fields[context: 7]?.value == .unsigned(1))  // created on fabric 1
        #expect(fields[context: 9]?.value == .unsigned(7))  // the next user
        let free = TLVElement(try #require(try bench.invoke(1, .doorLock, C.getUser, [0: .unsigned(4)])).fields)
        #expect(free[context: 1]?.value == .null && free[context: 3]?.value == .null)
        #expect(free[context: 9]?.value == .unsigned(7))
        #expect(events(bench, after: before) == Array(repeating: .DoorLock.lockUserChange, count: 3))

        let rebooted = try bench.reboot(.doorLock)
        let again = TLVElement(try #require(try rebooted.invoke(1, .doorLock, C.getUser, [0: .unsigned(3)])).fields)
        #expect(again[context: 1]?.value == .utf8("alicia"))
        try rebooted.invoke(1, .doorLock, C.clearUser, [0: .unsigned(3)])
        #expect(
            TLVElement(try #require(try rebooted.invoke(1, .doorLock, C.getUser, [0: .unsigned(3)])).fields)[
                context: 3]?.value == .null)
        try rebooted.invoke(1, .doorLock, C.clearUser, [0: .unsigned(0xFFFE)])
        #expect(
            TLVElement(try #require(try rebooted.invoke(1, .doorLock, C.getUser, [0: .unsigned(7)])).fields)[
                context: 3]?.value == .null)
        #expect(rebooted.status(1, .doorLock, C.clearUser, [0: .unsigned(0)]) == .invalidCommand)
    }

    @Test("SetCredential, GetCredentialStatus, ClearCredential: new user, occupied, duplicate, length, modify")
    func credentials() throws {
        let bench = try Bench(.doorLock)
        // A PIN without a user creates one at the first free index.
        let added = try #require(try Self.addPIN(bench, 1, "123456", user: nil))
        #expect(added[context: 0]?.value == .unsigned(0))
        #expect(added[context: 1]?.value == .unsigned(1))
        #expect(added[context: 2]?.value == .unsigned(2))  // the next free credential index
        #expect(try Self.addPIN(bench, 1, "654321", user: 1)?[context: 0]?.value == .unsigned(3))  // Occupied
        #expect(try Self.addPIN(bench, 2, "123456", user: 1)?[context: 0]?.value == .unsigned(2))  // Duplicate
        #expect(try Self.addPIN(bench, 2, "123", user: 1)?[context: 0]?.value == .unsigned(0x85))  // too short
        #expect(try Self.addPIN(bench, 11, "1111", user: 1)?[context: 0]?.value == .unsigned(0x85))
        #expect(try Self.addPIN(bench, 2, "2222", user: 9)?[context: 0]?.value == .unsigned(0x85))  // no such user
        #expect(try Self.addPIN(bench, 2, "2222", user: 1)?[context: 0]?.value == .unsigned(0))

        let status = TLVElement(
            try #require(try bench.invoke(1, .doorLock, C.getCredentialStatus, [0: Self.credential(2)])).fields)
        #expect(status[context: 0]?.value == .bool(true))
        #expect(status[context: 1]?.value == .unsigned(1))
        #expect(status[context: 4]?.value == .null)  // no occupied credential after 2
        let user = TLVElement(try #require(try bench.invoke(1, .doorLock, C.getUser, [0: .unsigned(1)])).fields)
        #expect(user[context: 6]?.value == .array([TLVElement(Self.credential(1)), TLVElement(Self.credential(2))]))

        // Modify the PIN of credential 2 (its own user only).
        let modify: (UInt64) throws -> TLVValue? = { user in
            try bench.invoke(
                1, .doorLock, C.setCredential,
                [
                    0: .unsigned(2), 1: Self.credential(2), 2: .bytes(Array("2468".utf8)), 3: .unsigned(user), 4: .null,
                    5: .null,
                ])?.fields
        }
        #expect(try modify(2).map { TLVElement($0)[context: 0]?.value } == .unsigned(0x85))
        #expect(try modify(1).map { TLVElement($0)[context: 0]?.value } == .unsigned(0))

        // Clearing the user's last credential clears the user.
        try bench.invoke(1, .doorLock, C.clearCredential, [0: Self.credential(1)])
        try bench.invoke(1, .doorLock, C.clearCredential, [0: Self.credential(2)])
        let gone = TLVElement(try #require(try bench.invoke(1, .doorLock, C.getUser, [0: .unsigned(1)])).fields)
        #expect(gone[context: 3]?.value == .null)
        #expect(bench.status(1, .doorLock, C.getCredentialStatus, [0: Self.credential(0)]) == .invalidCommand)
    }

    @Test("a PIN is checked on Lock/Unlock; RequirePINforRemoteOperation; a disabled user is denied")
    func pinOnRemoteOperation() throws {
        let bench = try Bench(.doorLock)
        try Self.addPIN(bench, 1, "1234", user: nil)
        let before = bench.model.eventRecords(from: 0).count
        #expect(bench.status(1, .doorLock, C.unlockDoor, [0: .bytes(Array("9999".utf8))]) == .failure)
        #expect(bench.value(1, .doorLock, A.lockState) == .unsigned(1))
        #expect(bench.status(1, .doorLock, C.unlockDoor, [0: .bytes(Array("1234".utf8))]) == .success)
        #expect(bench.value(1, .doorLock, A.lockState) == .unsigned(2))
        let records = bench.model.eventRecords(from: 0).dropFirst(before)
        #expect(records.map(\.path.event) == [.DoorLock.lockOperationError, .DoorLock.lockOperation])
        let operation = TLVElement(try #require(records.last?.data))
        #expect(operation[context: 2]?.value == .unsigned(1))  // UserIndex
        #expect(operation[context: 5]?.value == .array([TLVElement(Self.credential(1))]))
        #expect(TLVElement(try #require(records.first?.data))[context: 2]?.value == .unsigned(1))  // InvalidCredential

        // Without a PIN: fine until RequirePINforRemoteOperation is set.
        #expect(bench.status(1, .doorLock, C.lockDoor) == .success)
        #expect(bench.write(1, .doorLock, A.requirePINForRemoteOperation, .bool(true)) == .success)
        #expect(bench.status(1, .doorLock, C.unlockDoor) == .failure)
        #expect(bench.status(1, .doorLock, C.unlockDoor, [0: .bytes(Array("1234".utf8))]) == .success)

        // A disabled user's PIN is refused (DisabledUserDenied) and is no wrong code.
        #expect(
            bench.status(
                1, .doorLock, C.setUser,
                [0: .unsigned(2), 1: .unsigned(1), 2: .null, 3: .null, 4: .unsigned(3), 5: .null, 6: .null])
                == .success)
        let count = bench.model.eventRecords(from: 0).count
        #expect(bench.status(1, .doorLock, C.lockDoor, [0: .bytes(Array("1234".utf8))]) == .failure)
        let denied = TLVElement(try #require(bench.model.eventRecords(from: 0).dropFirst(count).first?.data))
        #expect(denied[context: 2]?.value == .unsigned(2))
        let rebooted = try bench.reboot(.doorLock)
        #expect(rebooted.value(1, .doorLock, A.requirePINForRemoteOperation) == .bool(true))
    }

    @Test("WrongCodeEntryLimit wrong PINs lock remote operation out for UserCodeTemporaryDisableTime, with an alarm")
    func lockOut() throws {
        let bench = try Bench(.doorLock)
        try Self.addPIN(bench, 1, "1234", user: nil)
        #expect(bench.write(1, .doorLock, A.wrongCodeEntryLimit, .unsigned(3)) == .success)
        #expect(bench.write(1, .doorLock, A.userCodeTemporaryDisableTime, .unsigned(20)) == .success)
        let wrong: [UInt8: TLVValue] = [0: .bytes(Array("0000".utf8))]
        let right: [UInt8: TLVValue] = [0: .bytes(Array("1234".utf8))]
        // A right PIN between wrong ones resets the count.
        #expect(bench.status(1, .doorLock, C.unlockDoor, wrong) == .failure)
        #expect(bench.status(1, .doorLock, C.unlockDoor, wrong) == .failure)
        #expect(bench.status(1, .doorLock, C.lockDoor, right) == .success)
        let before = bench.model.eventRecords(from: 0).count
        for _ in 0..<3 { #expect(bench.status(1, .doorLock, C.unlockDoor, wrong) == .failure) }
        #expect(events(bench, after: before).contains(.DoorLock.doorLockAlarm))
        let alarm = bench.model.eventRecords(from: 0).dropFirst(before).first {
            $0.path.event == .DoorLock.doorLockAlarm
        }
        #expect(alarm?.data == .structure([TLVElement(tag: .context(0), .unsigned(4))]))
        // Locked out: even the right PIN is refused, until the time has passed.
        #expect(bench.status(1, .doorLock, C.unlockDoor, right) == .failure)
        bench.advance(19_000)
        #expect(bench.status(1, .doorLock, C.unlockDoor, right) == .failure)
        bench.advance(1_000)
        #expect(bench.status(1, .doorLock, C.unlockDoor, right) == .success)
        #expect(bench.value(1, .doorLock, A.lockState) == .unsigned(2))
        #expect(bench.write(1, .doorLock, A.userCodeTemporaryDisableTime, .unsigned(0)) == .constraintError)
    }

    @Test("AutoRelockTime relocks after an unlock (source Auto); a lock meanwhile cancels it")
    func autoRelock() throws {
        let bench = try Bench(.doorLock)
        #expect(bench.write(1, .doorLock, A.autoRelockTime, .unsigned(5)) == .success)
        try bench.invoke(1, .doorLock, C.unlockDoor)
        bench.advance(4_900)
        #expect(bench.value(1, .doorLock, A.lockState) == .unsigned(2))
        let before = bench.model.eventRecords(from: 0).count
        bench.advance(100)
        #expect(bench.value(1, .doorLock, A.lockState) == .unsigned(1))
        let relock = TLVElement(try #require(bench.model.eventRecords(from: 0).dropFirst(before).first?.data))
        #expect(relock[context: 0]?.value == .unsigned(0) && relock[context: 1]?.value == .unsigned(4))
        // Unlock, then lock before the time is up: no relock event later.
        try bench.invoke(1, .doorLock, C.unlockDoor)
        try bench.invoke(1, .doorLock, C.lockDoor)
        #expect(bench.nextTimerDeadline == nil)
        let rebooted = try bench.reboot(.doorLock)
        #expect(rebooted.value(1, .doorLock, A.autoRelockTime) == .unsigned(5))
    }

    @Test("week-day and year-day schedules: validation, get, clear one and all, persisted")
    func schedules() throws {
        let bench = try Bench(.doorLock)
        #expect(Self.setUser(bench, 0, 2) == .success)
        let weekDay: (UInt64, UInt64, UInt64, UInt64) -> [UInt8: TLVValue] = { index, user, start, end in
            [
                0: .unsigned(index), 1: .unsigned(user), 2: .unsigned(0x3E), 3: .unsigned(start), 4: .unsigned(0),
                5: .unsigned(end), 6: .unsigned(30),
            ]
        }
        #expect(bench.status(1, .doorLock, C.setWeekDaySchedule, weekDay(1, 2, 8, 17)) == .success)
        #expect(bench.status(1, .doorLock, C.setWeekDaySchedule, weekDay(5, 2, 8, 17)) == .invalidCommand)
        #expect(bench.status(1, .doorLock, C.setWeekDaySchedule, weekDay(1, 2, 18, 17)) == .invalidCommand)
        #expect(bench.status(1, .doorLock, C.setWeekDaySchedule, weekDay(1, 2, 24, 25)) == .invalidCommand)
        #expect(bench.status(1, .doorLock, C.setWeekDaySchedule, weekDay(1, 3, 8, 17)) == .failure)  // no user 3
        let get = { (index: UInt64) throws -> TLVElement in
            TLVElement(
                try #require(
                    try bench.invoke(1, .doorLock, C.getWeekDaySchedule, [0: .unsigned(index), 1: .unsigned(2)])
                )
                .fields)
        }
        #expect(try get(1)[context: 2]?.value == .unsigned(0))
        #expect(try get(1)[context: 3]?.value == .unsigned(0x3E))
        #expect(try get(1)[context: 4]?.value == .unsigned(8))  // StartHour
        #expect(try get(2)[context: 2]?.value == .unsigned(0x8B))  // NotFound
        #expect(try get(9)[context: 2]?.value == .unsigned(0x85))

        let yearDay: [UInt8: TLVValue] = [0: .unsigned(1), 1: .unsigned(2), 2: .unsigned(1_000), 3: .unsigned(2_000)]
        #expect(bench.status(1, .doorLock, C.setYearDaySchedule, yearDay) == .success)
        #expect(
            bench.status(
                1, .doorLock, C.setYearDaySchedule,
                [0: .unsigned(1), 1: .unsigned(2), 2: .unsigned(2_000), 3: .unsigned(1_000)]) == .invalidCommand)
        let rebooted = try bench.reboot(.doorLock)
        let year = TLVElement(
            try #require(
                try rebooted.invoke(1, .doorLock, C.getYearDaySchedule, [0: .unsigned(1), 1: .unsigned(2)])
            ).fields)
        #expect(year[context: 2]?.value == .unsigned(0) && year[context: 4]?.value == .unsigned(2_000))
        try rebooted.invoke(1, .doorLock, C.clearWeekDaySchedule, [0: .unsigned(0xFE), 1: .unsigned(2)])
        try rebooted.invoke(1, .doorLock, C.clearYearDaySchedule, [0: .unsigned(1), 1: .unsigned(2)])
        let cleared = TLVElement(
            try #require(
                try rebooted.invoke(1, .doorLock, C.getWeekDaySchedule, [0: .unsigned(1), 1: .unsigned(2)])
            ).fields)
        #expect(cleared[context: 2]?.value == .unsigned(0x8B))
        // Clearing the user clears its schedules with it.
        #expect(rebooted.status(1, .doorLock, C.setWeekDaySchedule, weekDay(1, 2, 8, 17)) == .success)
        try rebooted.invoke(1, .doorLock, C.clearUser, [0: .unsigned(2)])
        #expect(Self.setUser(rebooted, 0, 2) == .success)
        let fresh = TLVElement(
            try #require(
                try rebooted.invoke(1, .doorLock, C.getWeekDaySchedule, [0: .unsigned(1), 1: .unsigned(2)])
            ).fields)
        #expect(fresh[context: 2]?.value == .unsigned(0x8B))
    }
}
