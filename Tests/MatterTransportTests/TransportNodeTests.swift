import Dispatch
import MatterCore
import MatterTestSupport
import Testing

@testable import MatterTransport

@Suite("Transport node: sessions, exchanges, MRP over the in-memory network")
struct TransportNodeTests {
    @Test func secureRequestResponseBothWays() async throws {
        let network = InMemoryNetwork()
        let a = network.makeEndpoint(queue: DispatchQueue(label: "a"))
        let b = network.makeEndpoint(queue: DispatchQueue(label: "b"))
        let pair = await NodePair.make(
            initiator: a, initiatorAddress: a.address, responder: b, responderAddress: b.address)
        let echoA = EchoResponder()
        let echoB = EchoResponder()
        await pair.initiator.setUnsolicitedHandler(echoA, for: .echo)
        await pair.responder.setUnsolicitedHandler(echoB, for: .echo)
        let reply = try await echoRequest(node: pair.initiator, session: pair.initiatorSession, payload: [1, 2, 3])
        #expect(reply.opcode == 2)
        #expect(reply.payload == [3, 2, 1])
        let back = try await echoRequest(node: pair.responder, session: pair.responderSession, payload: [9, 8])
        #expect(back.payload == [8, 9])
        // Everything on the wire after the header is ciphertext: the payload never appears in clear.
        for record in network.log { #expect(!record.bytes.contains([1, 2, 3])) }
        await pair.stop()
    }

    @Test func unsecuredHandshakeStyleExchange() async throws {
        let network = InMemoryNetwork()
        let a = network.makeEndpoint(queue: DispatchQueue(label: "a"))
        let b = network.makeEndpoint(queue: DispatchQueue(label: "b"))
        let nodeA = TransportNode(transport: a)
        let nodeB = TransportNode(transport: b)
        await nodeA.start()
        await nodeB.start()
        await nodeB.setUnsolicitedHandler(EchoResponder(), for: .echo)
        let session = await nodeA.openUnsecuredSession(to: b.address)
        let reply = try await echoRequest(node: nodeA, session: session, payload: Array("pbkdf".utf8))
        #expect(reply.payload == Array("fdkbp".utf8))
        // Initiator sends S + ephemeral ID; responder echoes it as the destination.
        let sent = network.log
        var first = ByteReader(sent[0].bytes)
        let request = try MessageHeader(from: &first)
        guard case .unsecured(_, let ephemeral) = session else {
            Issue.record("not unsecured")
            return
        }
        #expect(request.source == ephemeral)
        var second = ByteReader(sent[1].bytes)
        #expect(try MessageHeader(from: &second).destination == .node(ephemeral))
        await nodeA.stop()
        await nodeB.stop()
    }

    @Test func mrpRetransmitsOnTheSpecScheduleThenGivesUp() async throws {
        let clock = ManualClock()
        let network = InMemoryNetwork(clock: clock)
        let a = network.makeEndpoint(queue: DispatchQueue(label: "a"))
        let silent = UDPAddress(ip: [127, 0, 0, 1], port: 9)  // nobody there
        let pair = await NodePair.make(
            initiator: a, initiatorAddress: a.address,
            responder: network.makeEndpoint(queue: DispatchQueue(label: "b")),
            responderAddress: silent, clock: clock, dispatchTimers: false)
        let task = Task {
            try await echoRequest(node: pair.initiator, session: pair.initiatorSession, payload: [7], timeout: 60_000)
        }
        // Let the first transmission happen.
        while network.log.isEmpty { await Task.yield() }
        // The session was just established, so the peer counts as active for its active threshold
        // (4 s): active interval 300 ms → 330, 330, 528, 844, 1351 ms before jitter (≤ +24.9%).
        let bases: [UInt64] = [330, 330, 528, 844, 1351]
        var sendTimes = [clock.nowMilliseconds()]
        for (index, base) in bases.enumerated() {
            let deadline = try #require(await pair.initiator.nextDeadline)
            let wait = deadline - clock.nowMilliseconds()
            #expect(wait >= base && wait <= base * 1249 / 1000 + 1, "wait \(index): \(wait) ms for base \(base)")
            clock.advance(by: wait)
            await pair.initiator.serviceTimers()
            sendTimes.append(clock.nowMilliseconds())
        }
        // Five transmissions of identical bytes, then the exchange fails.
        let sent = network.log.filter { $0.to == 9 }
        #expect(sent.count == MRPBackoff.maxTransmissions)
        #expect(Set(sent.map(\.bytes)).count == 1)
        await #expect(throws: TransportError.noAcknowledgement(transmissions: 5)) { try await task.value }
        await pair.stop()
    }

    @Test func duplicatesAreAcknowledgedButDeliveredOnce() async throws {
        let network = InMemoryNetwork(faults: FaultInjection(duplicate: 1.0, seed: 3))
        let a = network.makeEndpoint(queue: DispatchQueue(label: "a"))
        let b = network.makeEndpoint(queue: DispatchQueue(label: "b"))
        let pair = await NodePair.make(
            initiator: a, initiatorAddress: a.address, responder: b, responderAddress: b.address)
        let echo = EchoResponder()
        await pair.responder.setUnsolicitedHandler(echo, for: .echo)
        for i in 0..<5 {
            let reply = try await echoRequest(node: pair.initiator, session: pair.initiatorSession, payload: [UInt8(i)])
            #expect(reply.payload == [UInt8(i)])
        }
        let delivered = await pair.responder.run { _ in echo.received.count }
        #expect(delivered == 5)
        let stats = await pair.responder.statistics
        #expect(stats.droppedDuplicate >= 5)
        await pair.stop()
    }

    @Test(arguments: 0..<20)
    func exchangesCompleteDespiteDropDuplicationAndReordering(seed: Int) async throws {
        let network = InMemoryNetwork(faults: FaultInjection(drop: 0.3, duplicate: 0.3, delay: 0.3, seed: UInt64(seed)))
        let a = network.makeEndpoint(queue: DispatchQueue(label: "a"))
        let b = network.makeEndpoint(queue: DispatchQueue(label: "b"))
        let pair = await NodePair.make(
            initiator: a, initiatorAddress: a.address, responder: b, responderAddress: b.address,
            seed: UInt64(seed))
        await pair.responder.setUnsolicitedHandler(EchoResponder(), for: .echo)
        await pair.initiator.setPeerMRP(MRPParameters(idleInterval: 20, activeInterval: 20), for: pair.initiatorSession)
        await pair.responder.setPeerMRP(MRPParameters(idleInterval: 20, activeInterval: 20), for: pair.responderSession)
        var completed = 0
        for i in 0..<5 {
            do {
                let reply = try await echoRequest(
                    node: pair.initiator, session: pair.initiatorSession, payload: [UInt8(i), 0xAA],
                    timeout: 5_000)
                #expect(reply.payload == [0xAA, UInt8(i)])
                completed += 1
            } catch TransportError.noAcknowledgement, TransportError.responseTimeout {
                // 30% loss each way can, rarely, eat all five transmissions of the request or of the
                // response (the responder then gives up and the initiator's wait times out).
            }
        }
        #expect(completed >= 3, "seed \(seed): \(completed)/5")
        await pair.stop()
    }

    @Test func tamperedAndUnknownSessionDatagramsAreCountedNotDelivered() async throws {
        let network = InMemoryNetwork()
        let a = network.makeEndpoint(queue: DispatchQueue(label: "a"))
        let b = network.makeEndpoint(queue: DispatchQueue(label: "b"))
        let pair = await NodePair.make(
            initiator: a, initiatorAddress: a.address, responder: b, responderAddress: b.address)
        await pair.responder.setUnsolicitedHandler(EchoResponder(), for: .echo)
        _ = try await echoRequest(node: pair.initiator, session: pair.initiatorSession, payload: [1])
        let request = network.log[0].bytes
        var flipped = request
        flipped[flipped.count - 1] ^= 0x01
        var unknown = request
        unknown[1] ^= 0xFF
        for bytes in [flipped, unknown, [0x00], request] { try a.send(bytes, to: b.address) }
        // Wait until the four datagrams are processed.
        var stats = await pair.responder.statistics
        while stats.datagramsReceived < 6 {
            await Task.yield()
            stats = await pair.responder.statistics
        }
        #expect(stats.droppedUnauthenticated == 1)
        #expect(stats.droppedUnknownSession == 1)
        #expect(stats.droppedUndecodable == 1)
        #expect(stats.droppedDuplicate == 1)  // the replayed original
        await pair.stop()
    }
}

extension TransportNode {
    /// Runs `body` in the node's isolation (tests).
    func run<T: Sendable>(_ body: @Sendable (isolated TransportNode) -> T) -> T { body(self) }
}
