import MatterController
import MatterCore
import MatterDevice
import MatterInteraction
import MatterTestSupport
import Testing

@testable import MatterHome

/// HomeError's codes: the Home API's (gRPC's), with the device's Matter status underneath.
@Suite("Home API errors")
struct HomeErrorTests {
    let bed: HomeTestBed

    init() throws { bed = try HomeTestBed() }

    @Test(
        "a Matter status maps to the Home API's code, the statuses kept as subcodes",
        arguments: [
            (IMStatus.unsupportedAccess, HomeError.Code.permissionDenied),
            (.unsupportedEndpoint, .notFound), (.unsupportedCluster, .notFound), (.unsupportedAttribute, .notFound),
            (.unsupportedCommand, .unimplemented), (.unsupportedWrite, .unimplemented),
            (.constraintError, .invalidArgument), (.invalidCommand, .invalidArgument),
            (.resourceExhausted, .resourceExhausted), (.dataVersionMismatch, .aborted),
            (.timeout, .deadlineExceeded), (.busy, .unavailable), (.needsTimedInteraction, .failedPrecondition),
            (.invalidInState, .failedPrecondition), (.failure, .unknown), (IMStatus(rawValue: 0xD0), .alreadyExists),
        ])
    func statusCodes(_ status: IMStatus, _ code: HomeError.Code) {
        let error = HomeError(ControllerError.status(StatusIB(status, clusterStatus: 3), context: "node 1"))
        #expect(error.code == code)
        #expect(error.category == .status)
        #expect(error.subcodes == [Int(status.rawValue), 3])
        #expect(HomeError(ControllerError.status(StatusIB(status), context: "x")).subcodes == [Int(status.rawValue)])
    }

    @Test("the controller's other failures: not found, unauthenticated, unavailable, cancelled, internal")
    func controllerFailures() {
        #expect(HomeError(ControllerError.notFound("no device")).code == .notFound)
        #expect(HomeError(ControllerError.pase("wrong passcode")).code == .unauthenticated)
        #expect(HomeError(ControllerError.attestation(code: 1, reason: "untrusted PAA")).code == .permissionDenied)
        #expect(HomeError(ControllerError.unreachable("CASE failed")).code == .unavailable)
        #expect(HomeError(ControllerError.notOnFabric("removed")).code == .failedPrecondition)
        #expect(HomeError(ControllerError.cancelled("by the caller")).code == .cancelled)
        #expect(HomeError(ControllerError.internalFailure("bug")).code == .internal)
        #expect(HomeError(ControllerError.invalidArgument("bad")).code == .invalidArgument)
        #expect(HomeError.cancelled().code == .cancelled && HomeError.unknown("x").code == .unknown)
        #expect(HomeError.unknown("x").localizedDescription == "x")
    }

    @Test("through the API: a room that exists or is gone, commissioning unprepared, a value the device refuses")
    func throughTheAPI() async throws {
        let lock = try await bed.device("door-lock", name: "lock", discriminator: 501)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().list().first)
        let kitchen = try await structure.createRoom(name: "Kitchen")
        let exists = await #expect(throws: HomeError.self) { try await structure.createRoom(name: "KITCHEN") }
        #expect(exists?.code == .alreadyExists)
        try await structure.deleteRoom(kitchen)
        let gone = await #expect(throws: HomeError.self) { try await structure.deleteRoom(kitchen) }
        #expect(gone?.code == .notFound)
        let unprepared = await #expect(throws: HomeError.self) {
            _ = try await structure.commissionMatterDevice(onboardingPayload: "MT:-24J0AFN00KA0648G00")
        }
        #expect(unprepared?.code == .failedPrecondition)

        _ = try await commission([lock], in: structure)
        let device = try #require(try await home.devices().byID().first)
        let doorLock = try #require(await device.types.get(DoorLockDeviceType.self)?.matterTraits.doorLockTrait)
        // WrongCodeEntryLimit is 1...255: the device answers CONSTRAINT_ERROR (0x87).
        let refused = await #expect(throws: HomeError.self) {
            try await doorLock.update { $0.setWrongCodeEntryLimit(0) }
        }
        #expect(refused?.code == .invalidArgument)
        #expect(refused?.subcodes == [0x87])
        await home.close()
        await lock.stop()
    }
}
