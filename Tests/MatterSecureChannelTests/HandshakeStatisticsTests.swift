import Dispatch
import MatterCore
import MatterCrypto
import MatterTestSupport
import MatterTransport
import Testing

@testable import MatterSecureChannel

@Suite("PASE and CASE responders: half-open handshakes end, outcomes are counted")
struct HandshakeStatisticsTests {
    /// A device node on a manual clock (its timers do not run) and a commissioner node.
    static func pasePair() async throws -> (PASEPair, InMemoryNetwork, ManualClock) {
        let clock = ManualClock()
        let network = InMemoryNetwork()
        let deviceEndpoint = network.makeEndpoint(queue: DispatchQueue(label: "device"))
        var configuration = TransportNode.Configuration()
        configuration.usesDispatchTimers = false
        let device = TransportNode(transport: deviceEndpoint, clock: clock, configuration: configuration)
        let commissioner = TransportNode(transport: network.makeEndpoint(queue: DispatchQueue(label: "commissioner")))
        await device.start()
        await commissioner.start()
        let verifier = try Spake2PlusPasscodeVerifier(passcode: 20_202_021, salt: PASEPair.salt, iterations: 1000)
        let responder = PASEResponder(
            credentials: .init(
                verifier: verifier,
                pbkdf: PBKDFParameters(iterations: 1000, salt: PASEPair.salt)))
        await SecureChannelResponder(pase: responder).install(on: device)
        let pair = PASEPair(
            device: device, commissioner: commissioner, responder: responder,
            deviceAddress: deviceEndpoint.address, events: PASEEvents())
        return (pair, network, clock)
    }

    static func statistics(_ pair: PASEPair) async -> PASEStatistics {
        await pair.device.run { _ in pair.responder.statistics }
    }

    @Test func aHalfOpenHandshakeIsAbandonedAfterThePASETimeoutAndFreesItsState() async throws {
        let (pair, network, clock) = try await Self.pasePair()
        // Another initiator (another address: the same one starting over would replace its handshake).
        let other = TransportNode(transport: network.makeEndpoint(queue: DispatchQueue(label: "other")))
        await other.start()
        try await stallHandshake(from: other, to: pair.deviceAddress)
        while network.log.count < 2 { await Task.yield() }  // PBKDFParamRequest, PBKDFParamResponse
        #expect(await pair.device.reservedSessionIDCount == 1)
        #expect(await pair.device.unsecuredSessionCount == 1)
        await #expect(throws: SecureChannelError.busy(retryAfterMilliseconds: 1000)) { try await pair.establish() }
        clock.advance(by: PASEResponder.abandonAfterMilliseconds)
        _ = try await pair.establish()
        let stats = await Self.statistics(pair)
        #expect(stats == PASEStatistics(requests: 3, refusedBusy: 1, abandoned: 1, established: 1))
        #expect(pair.responder.failedAttempts == 1)
        // Nothing of the stalled handshake is left: its session ID, its unsecured session, its exchange.
        #expect(await pair.device.reservedSessionIDCount == 0)
        #expect(await pair.device.unsecuredSessionCount == 0)
        #expect(await pair.device.openExchangeCount == 0)
        await other.stop()
        await pair.stop()
    }

    @Test func requestsWhileTheWindowIsClosedAreRefusedAndCounted() async throws {
        let (pair, _, _) = try await Self.pasePair()
        let events = pair.events
        await pair.device.run { _ in
            pair.responder.credentials = nil
            pair.responder.onFailure = { error in events.record("failed \(error)") }
        }
        for _ in 0..<3 {
            await #expect(throws: SecureChannelError.self) { try await pair.establish() }
        }
        #expect(await Self.statistics(pair) == PASEStatistics(requests: 3, refusedWindowClosed: 3))
        #expect(pair.responder.failedAttempts == 0)
        #expect(events.all.isEmpty)  // counted, not reported one by one
        #expect(await pair.device.unsecuredSessionCount == 0)
        await pair.stop()
    }

    @Test func wrongPasscodeCountsAsFailed() async throws {
        let (pair, _, _) = try await Self.pasePair()
        await #expect(throws: SecureChannelError.wrongPasscode) { try await pair.establish(passcode: 20_202_022) }
        while await pair.device.run({ _ in pair.responder.isIdle }) == false { await Task.yield() }
        #expect(await Self.statistics(pair) == PASEStatistics(requests: 1, failed: 1))
        await pair.stop()
    }

    @Test func caseOutcomesAreCounted() async throws {
        let (pair, controller, _) = try await CASETests.setUp()
        _ = try await pair.establish(controller, peerNodeID: CASETests.deviceNode)
        _ = try await pair.establish(controller, peerNodeID: CASETests.deviceNode)
        await #expect(throws: SecureChannelError.noSharedTrustRoots) {
            try await pair.establish(controller, peerNodeID: NodeID(0x9999))
        }
        let stats = await pair.responder.run { _ in pair.caseResponder.statistics }
        #expect(stats == CASEStatistics(requests: 3, noSharedTrustRoots: 1, established: 1, resumed: 1))
        await pair.stop()
    }
}

extension PASEStatistics {
    init(
        requests: Int, refusedWindowClosed: Int = 0, refusedBusy: Int = 0, invalidRequests: Int = 0, failed: Int = 0,
        abandoned: Int = 0, established: Int = 0
    ) {
        self.init()
        self.requests = requests
        self.refusedWindowClosed = refusedWindowClosed
        self.refusedBusy = refusedBusy
        self.invalidRequests = invalidRequests
        self.failed = failed
        self.abandoned = abandoned
        self.established = established
    }
}

extension CASEStatistics {
    init(
        requests: Int, invalidRequests: Int = 0, noSharedTrustRoots: Int = 0, failed: Int = 0, established: Int = 0,
        resumed: Int = 0
    ) {
        self.init()
        self.requests = requests
        self.invalidRequests = invalidRequests
        self.noSharedTrustRoots = noSharedTrustRoots
        self.failed = failed
        self.established = established
        self.resumed = resumed
    }
}
