import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import MatterTestSupport
import Testing

@Suite("Door Lock")
struct DoorLockTests {
    typealias A = AttributeID.DoorLock

    @Test func lockAndUnlockRecordTheOperation() throws {
        let bench = try Bench(.doorLock)
        #expect(bench.value(1, .doorLock, A.lockState) == .unsigned(1))
        #expect(bench.value(1, .doorLock, A.lockType) == .unsigned(0))
        #expect(bench.value(1, .doorLock, A.actuatorEnabled) == .bool(true))
        #expect(bench.value(1, .doorLock, A.supportedOperatingModes) == .unsigned(0xFFF6))
        let commands = bench.model.acceptedCommands(endpoint: EndpointID(1), cluster: .doorLock)
        let timed = commands.filter(\.requiresTimedInvoke).map(\.id)
        typealias C = CommandID.DoorLock
        #expect(timed == [C.lockDoor, C.unlockDoor, C.setUser, C.clearUser, C.setCredential, C.clearCredential])
        let before = bench.model.eventRecords(from: 0).count
        try bench.invoke(1, .doorLock, .DoorLock.unlockDoor)
        #expect(bench.value(1, .doorLock, A.lockState) == .unsigned(2))
        try bench.invoke(1, .doorLock, .DoorLock.lockDoor)
        #expect(bench.value(1, .doorLock, A.lockState) == .unsigned(1))
        #expect(bench.log == ["door-lock 1 → unlocked", "door-lock 1 → locked"])
        let events = bench.model.eventRecords(from: 0).dropFirst(before)
        #expect(events.map(\.path.event) == [.DoorLock.lockOperation, .DoorLock.lockOperation])
        #expect(
            events.first?.data
                == .structure([
                    TLVElement(tag: .context(0), .unsigned(1)), TLVElement(tag: .context(1), .unsigned(7)),
                    TLVElement(tag: .context(2), .null), TLVElement(tag: .context(3), .unsigned(1)),
                    TLVElement(tag: .context(4), .unsigned(controllerNodeID)), TLVElement(tag: .context(5), .null),
                ]))
        #expect(bench.status(1, .doorLock, .DoorLock.lockDoor, [0: .utf8("1234")]) == .invalidCommand)
        // The state survives a restart.
        try bench.invoke(1, .doorLock, .DoorLock.unlockDoor)
        let device = try bench.reboot(.doorLock)
        #expect(device.value(1, .doorLock, A.lockState) == .unsigned(2))
    }

    @Test func operatingModeRestrictsRemoteOperation() throws {
        let bench = try Bench(.doorLock)
        #expect(bench.write(1, .doorLock, A.operatingMode, .unsigned(1)) == .constraintError)
        #expect(bench.write(1, .doorLock, A.operatingMode, .unsigned(9)) == .constraintError)
        #expect(bench.write(1, .doorLock, A.operatingMode, .unsigned(3)) == .success)
        #expect(bench.status(1, .doorLock, .DoorLock.unlockDoor) == .failure)
        #expect(bench.value(1, .doorLock, A.lockState) == .unsigned(1))
        #expect(bench.model.eventRecords(from: 0).last?.path.event == .DoorLock.lockOperationError)
        let device = try bench.reboot(.doorLock)
        #expect(device.value(1, .doorLock, A.operatingMode) == .unsigned(3))
        #expect(device.write(1, .doorLock, A.operatingMode, .unsigned(0)) == .success)
        #expect(device.status(1, .doorLock, .DoorLock.unlockDoor) == .success)
    }

    @Test func wrongCodeEntryLimitIsConstrained() throws {
        let bench = try Bench(.doorLock)
        #expect(bench.value(1, .doorLock, A.wrongCodeEntryLimit) == .unsigned(5))
        #expect(bench.write(1, .doorLock, A.wrongCodeEntryLimit, .unsigned(0)) == .constraintError)
        #expect(bench.write(1, .doorLock, A.wrongCodeEntryLimit, .unsigned(256)) == .constraintError)
        #expect(bench.write(1, .doorLock, A.wrongCodeEntryLimit, .bool(true)) == .invalidDataType)
        #expect(bench.write(1, .doorLock, A.wrongCodeEntryLimit, .unsigned(255)) == .success)
        #expect(bench.write(1, .doorLock, A.wrongCodeEntryLimit, .unsigned(1)) == .success)
        let device = try bench.reboot(.doorLock)
        #expect(device.value(1, .doorLock, A.wrongCodeEntryLimit) == .unsigned(1))
        let info = bench.model.attributes(endpoint: EndpointID(1), cluster: .doorLock).first {
            $0.id == A.wrongCodeEntryLimit
        }
        #expect(info?.writePrivilege == .administer)
        #expect(info?.readPrivilege == .view)
    }
}
