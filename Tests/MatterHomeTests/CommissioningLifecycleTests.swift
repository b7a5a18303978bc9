import MatterClusters
import MatterController
import MatterCore
import MatterDevice
import MatterStorage
import MatterTLV
import Testing

@testable import MatterHome

/// prepare / commission / complete / cancel, against virtual devices.
@Suite("Home API commissioning lifecycle")
struct CommissioningLifecycleTests {
    let bed: HomeTestBed

    init() throws { bed = try HomeTestBed() }

    @Test("commissioning without prepare, complete without prepare, and a bad payload are typed errors")
    func misuse() async throws {
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().first)
        let error = await #expect(throws: HomeError.self) {
            try await structure.commissionMatterDevice(onboardingPayload: "MT:-24J0AFN00KA0648G00")
        }
        #expect(error?.category == .invalidArgument)
        #expect((try? structure.completeMatterCommissioning()) == nil)
        try await structure.prepareForMatterCommissioning()
        let bad = await #expect(throws: HomeError.self) {
            try await structure.commissionMatterDevice(onboardingPayload: "not a code")
        }
        #expect(bad?.category == .invalidArgument)
        #expect(try structure.completeMatterCommissioning() == [])
        await home.close()
    }

    @Test("a second prepare while one is prepared fails, in this home and in another on the same directory")
    func secondPrepare() async throws {
        let first = try await bed.openHome()
        let second = try await bed.openHome()
        let structure = try #require(try await first.structures().first)
        let otherStructure = try #require(try await second.structures().first)
        try await structure.prepareForMatterCommissioning()
        let again = await #expect(throws: HomeError.self) { try await structure.prepareForMatterCommissioning() }
        #expect(again?.category == .commissioning)
        let other = await #expect(throws: HomeError.self) { try await otherStructure.prepareForMatterCommissioning() }
        #expect(other?.category == .commissioning)
        #expect(other?.message.contains("another commissioning is in progress") == true)
        _ = try structure.completeMatterCommissioning()
        try await otherStructure.prepareForMatterCommissioning()
        otherStructure.cancelMatterCommissioning()
        await first.close()
        await second.close()
    }

    @Test("prepare without discovery and without a commissioning address is a discovery error")
    func noDiscovery() async throws {
        let home = try await Home.open(
            configuration: Home.Configuration(stateDirectory: bed.stateDirectory, discovery: .none))
        let structure = try #require(try await home.structures().first)
        let error = await #expect(throws: HomeError.self) { try await structure.prepareForMatterCommissioning() }
        #expect(error?.category == .discovery)
        await home.close()
    }

    @Test(
        "cancel at a stage: the caller gets cancelled, nothing stays on the device or in the store",
        arguments: ["pase", "arm-fail-safe", "add-noc", "commissioning-complete", "store-node"])
    func cancelAtStage(_ stage: String) async throws {
        let lamp = try await bed.device("dimmable-light", name: "lamp", discriminator: 401)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().first)
        try await structure.prepareForMatterCommissioning()
        var failure: (any Error)?
        do {
            for try await update in structure.commissioningUpdates(onboardingPayload: lamp.qrCode) {
                if case .stageStarted(let started) = update, started == stage { structure.cancelMatterCommissioning() }
            }
        } catch {
            failure = error
        }
        #expect((failure as? HomeError)?.category == .cancelled)
        // The next prepare waits for the clean-up.
        try await structure.prepareForMatterCommissioning()
        #expect(try structure.completeMatterCommissioning() == [])
        #expect(await lamp.fabrics().isEmpty)
        #expect(try await home.devices().isEmpty)
        // The device can be commissioned again.
        let ids = try await commission([lamp], in: structure)
        #expect(await lamp.fabrics().map { String($0.nodeID.rawValue) } == ids)
        await home.close()
        await lamp.stop()
    }

    @Test("cancelling the task that iterates the updates cancels the commissioning")
    func taskCancellation() async throws {
        let lamp = try await bed.device("dimmable-light", name: "lamp", discriminator: 402)
        let home = try await bed.openHome()
        let structure = try #require(try await home.structures().first)
        try await structure.prepareForMatterCommissioning()
        // Leaving the loop early ends the sequence, which cancels its task.
        for try await update in structure.commissioningUpdates(onboardingPayload: lamp.qrCode) {
            if case .stageSucceeded("pase", _) = update { break }
        }
        try await structure.prepareForMatterCommissioning()
        #expect(try structure.completeMatterCommissioning() == [])
        #expect(await lamp.fabrics().isEmpty)
        #expect(try await home.devices().isEmpty)
        await home.close()
        await lamp.stop()
    }
}
