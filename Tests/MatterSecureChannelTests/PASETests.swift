import Dispatch
import MatterCore
import MatterCrypto
import MatterTestSupport
import MatterTransport
import Testing

@testable import MatterSecureChannel

@Suite("PASE over the in-memory network and real UDP")
struct PASETests {
    static func inMemory(passcode: UInt32 = 20_202_021) async throws -> (PASEPair, InMemoryNetwork) {
        let network = InMemoryNetwork()
        let device = network.makeEndpoint(queue: DispatchQueue(label: "device"))
        let commissioner = network.makeEndpoint(queue: DispatchQueue(label: "commissioner"))
        let pair = try await PASEPair.make(
            device: device, deviceAddress: device.address, commissioner: commissioner,
            passcode: passcode)
        return (pair, network)
    }

    @Test func rightPasscodeEstablishesMatchingSessions() async throws {
        let (pair, _) = try await Self.inMemory()
        let result = try await pair.establish()
        let mine = try #require(await pair.commissioner.secureSession(result.session))
        let devices = await pair.device.secureSessionList
        #expect(devices.count == 1)
        let theirs = try #require(devices.first)
        #expect(mine.kind == .pase && theirs.kind == .pase)
        #expect(mine.peerSessionID == theirs.localSessionID)
        #expect(theirs.peerSessionID == mine.localSessionID)
        #expect(mine.keys.encrypt == theirs.keys.decrypt)
        #expect(mine.keys.decrypt == theirs.keys.encrypt)
        #expect(mine.keys.attestationChallenge == theirs.keys.attestationChallenge)
        #expect(result.peerParameters?.idleInterval == MRPParameters.default.idleInterval)
        // Handshake state is gone on both sides.
        #expect(await pair.commissioner.unsecuredSessionCount == 0)
        #expect(await pair.device.unsecuredSessionCount == 0)
        #expect(await pair.device.reservedSessionIDCount == 0)
        #expect(pair.events.all.count == 1 && pair.events.all[0].hasPrefix("established"))
        await pair.stop()
    }

    @Test func knownPBKDFParametersAreNotSentAgain() async throws {
        let (pair, network) = try await Self.inMemory()
        _ = try await pair.establish(pbkdf: PBKDFParameters(iterations: 1000, salt: PASEPair.salt))
        // The PBKDFParamResponse (second datagram) carries no tag-4 structure.
        var reader = ByteReader(network.log[1].bytes)
        _ = try MessageHeader(from: &reader)
        _ = try PayloadHeader(from: &reader)
        let response = try PBKDFParamResponse(decoding: reader.readRest())
        #expect(response.pbkdf == nil)
        await pair.stop()
    }

    @Test func wrongPasscodeFailsOnBothSidesAndLeavesNoSession() async throws {
        let (pair, _) = try await Self.inMemory()
        await #expect(throws: SecureChannelError.wrongPasscode) { try await pair.establish(passcode: 20_202_022) }
        // The device learns it from the commissioner's StatusReport.
        var waited = 0
        while pair.events.all.isEmpty, waited < 1000 {
            try await Task.sleep(for: .milliseconds(5))
            waited += 1
        }
        #expect(pair.events.all == ["failed wrong setup passcode (PASE confirmation failed)"])
        #expect(await pair.device.secureSessionList.isEmpty)
        #expect(await pair.commissioner.secureSessionList.isEmpty)
        #expect(await pair.device.unsecuredSessionCount == 0)
        #expect(await pair.device.reservedSessionIDCount == 0)
        #expect(await pair.commissioner.reservedSessionIDCount == 0)
        #expect(pair.responder.failedAttempts == 1)
        // The right passcode still works afterwards.
        _ = try await pair.establish()
        await pair.stop()
    }

    @Test func twentyFailuresCloseTheCommissioningWindow() async throws {
        let (pair, _) = try await Self.inMemory()
        for _ in 0..<PASEResponder.maximumFailedAttempts {
            await #expect(throws: SecureChannelError.wrongPasscode) { try await pair.establish(passcode: 1) }
            while await pair.device.run({ _ in pair.responder.isIdle }) == false { await Task.yield() }
        }
        #expect(pair.events.all.last == "window closed")
        #expect(pair.responder.credentials == nil)
        // The device's FAILURE/INVALID_PARAMETER to PBKDFParamRequest reads as what it means (issue 35).
        let error = await #expect(throws: SecureChannelError.commissioningWindowClosed) { try await pair.establish() }
        #expect(error?.description.contains("the device's commissioning window is closed") == true)
        await pair.stop()
    }

    @Test func aSecondHandshakeMeanwhileGetsBusy() async throws {
        let (pair, network) = try await Self.inMemory()
        // Another initiator starts a handshake and stops after PBKDFParamRequest.
        let other = TransportNode(transport: network.makeEndpoint(queue: DispatchQueue(label: "other")))
        await other.start()
        try await stallHandshake(from: other, to: pair.deviceAddress)
        while network.log.count < 2 { await Task.yield() }
        await #expect(throws: SecureChannelError.busy(retryAfterMilliseconds: 1000)) { try await pair.establish() }
        await other.stop()
        await pair.stop()
    }

    @Test func theSameInitiatorStartingOverReplacesItsStalledHandshake() async throws {
        let (pair, network) = try await Self.inMemory()
        // The commissioner gave up on a handshake the device still waits on (its answer was acknowledged).
        try await stallHandshake(from: pair.commissioner, to: pair.deviceAddress)
        while network.log.count < 2 { await Task.yield() }
        _ = try await pair.establish()
        #expect(await pair.device.secureSessionList.count == 1)
        #expect(await pair.device.reservedSessionIDCount == 0)  // the stalled handshake's ID was released
        #expect(await pair.device.run { _ in pair.responder.failedAttempts } == 0)  // not a failed attempt
        await pair.stop()
    }

    /// Runs a handshake as far as Pake2 (the point where a passcode guess can be tested offline) and
    /// leaves it there.
    static func stallAfterPake2(from node: isolated TransportNode, to device: UDPAddress, passcode: UInt32)
        async throws
    {
        let session = node.openUnsecuredSession(to: device)
        let exchange = try node.openExchange(on: session, protocolID: .secureChannel)
        let request = PBKDFParamRequest(
            initiatorRandom: [UInt8](repeating: 9, count: 32), initiatorSessionID: 78,
            hasPBKDFParameters: false, sessionParameters: nil
        ).encoded()
        let reply = try await exchange.request(opcode: SecureChannelOpcode.pbkdfParamRequest, payload: request)
        let pbkdf = try #require(try PBKDFParamResponse(decoding: reply.payload).pbkdf)
        let prover = try Spake2PlusProver(
            context: try PASEContext.hash(request: request, response: reply.payload),
            passcode: passcode, salt: pbkdf.salt, iterations: Int(pbkdf.iterations))
        let pake2 = try await exchange.request(
            opcode: SecureChannelOpcode.pake1,
            payload: PakeMessages.pake1(pA: try prover.makeShare()))
        #expect(pake2.isMessage(.secureChannel, SecureChannelOpcode.pake2))
    }

    @Test func startingOverAfterPake2StillCountsAsAFailedAttempt() async throws {
        let (pair, _) = try await Self.inMemory()
        // A guess made (wrong passcode), Pake2 seen, then a new handshake from the same address: the
        // replaced one must count, or restarting would allow unlimited guesses.
        try await Self.stallAfterPake2(from: pair.commissioner, to: pair.deviceAddress, passcode: 11_111_112)
        _ = try await pair.establish()
        #expect(await pair.device.run { _ in pair.responder.failedAttempts } == 1)
        #expect(await pair.device.reservedSessionIDCount == 0)
        await pair.stop()
    }

    @Test(arguments: ["127.0.0.1", "::1"])
    func overRealUDP(host: String) async throws {
        let device = try UDPEndpoint(queue: DispatchQueue(label: "udp-device"))
        let commissioner = try UDPEndpoint(queue: DispatchQueue(label: "udp-commissioner"))
        let pair = try await PASEPair.make(
            device: device, deviceAddress: try #require(UDPAddress(host: host, port: device.port)),
            commissioner: commissioner)
        _ = try await pair.establish()
        await #expect(throws: SecureChannelError.wrongPasscode) { try await pair.establish(passcode: 12_121_212) }
        #expect(await pair.device.secureSessionList.count == 1)
        await pair.stop()
    }
}
