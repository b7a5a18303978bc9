import Dispatch
import MatterCore
import MatterTestSupport
import Testing

@testable import MatterTransport

/// Keeps every exchange it is given open (a handshake waiting for the peer's next message).
final class HoldingResponder: UnsolicitedMessageHandler, @unchecked Sendable {
    // @unchecked: used only on its node's queue.
    var held: [Exchange] = []
    var failures: [TransportError] = []

    func handleUnsolicited(_ message: ReceivedMessage, on exchange: Exchange, node: isolated TransportNode) {
        held.append(exchange)
        exchange.onFailure = { [weak self] _, error, _ in self?.failures.append(error) }
    }
}

/// Closes every exchange at once without answering (a request the protocol refuses).
final class SilentResponder: UnsolicitedMessageHandler, @unchecked Sendable {
    func handleUnsolicited(_ message: ReceivedMessage, on exchange: Exchange, node: isolated TransportNode) {
        exchange.close()
    }
}

@Suite("Transport node: state that peers' input creates stays bounded")
struct BoundedStateTests {
    static let held = ProtocolID(vendorID: 0xFFF1, protocolNumber: 0x0001)
    static let silent = ProtocolID(vendorID: 0xFFF1, protocolNumber: 0x0002)
    static let nobody = ProtocolID(vendorID: 0xFFF1, protocolNumber: 0x0003)

    /// An unsecured initiator's first message, as a handshake opener sends it.
    static func opener(from node: UInt64, protocolID: ProtocolID, counter: UInt32 = 1, exchangeID: UInt16 = 1)
        -> [UInt8]
    {
        var writer = ByteWriter()
        MessageHeader(sessionID: 0, messageCounter: counter, source: NodeID(node)).encode(into: &writer)
        PayloadHeader(isInitiator: true, needsAck: true, opcode: 1, exchangeID: exchangeID, protocolID: protocolID)
            .encode(into: &writer)
        writer.writeBytes([0xAA, 0xBB])
        return writer.bytes
    }

    /// A node whose timers the test drives, and a raw endpoint that sends to it and never acknowledges.
    static func nodeAndPeer(_ configure: (inout TransportNode.Configuration) -> Void)
        async -> (TransportNode, InMemoryEndpoint, InMemoryEndpoint, ManualClock, InMemoryNetwork)
    {
        let clock = ManualClock()
        let network = InMemoryNetwork(clock: clock)
        let endpoint = network.makeEndpoint(queue: DispatchQueue(label: "node"))
        let peer = network.makeEndpoint(queue: DispatchQueue(label: "peer"))
        var configuration = TransportNode.Configuration()
        configuration.usesDispatchTimers = false
        configuration.randomSeed = 11
        configure(&configuration)
        let node = TransportNode(transport: endpoint, clock: clock, configuration: configuration)
        await node.start()
        return (node, endpoint, peer, clock, network)
    }

    static func waitUntilReceived(_ node: TransportNode, _ count: Int) async {
        while await node.statistics.datagramsReceived < count { await Task.yield() }
    }

    @Test func aHandshakeInFlightKeepsItsSessionWhileAFloodOfPeersComesAndGoes() async throws {
        let (node, endpoint, peer, clock, _) = await Self.nodeAndPeer { $0.unsecuredSessionCapacity = 4 }
        let holder = HoldingResponder()
        await node.setUnsolicitedHandler(holder, for: Self.held)
        try peer.send(Self.opener(from: 1, protocolID: Self.held), to: endpoint.address)
        await Self.waitUntilReceived(node, 1)
        // 50 one-message peers: each opens an unsecured session nobody answers on.
        for source in 100..<150 {
            clock.advance(by: 10)
            try peer.send(Self.opener(from: UInt64(source), protocolID: Self.nobody), to: endpoint.address)
        }
        await Self.waitUntilReceived(node, 51)
        let handshake = SessionID.unsecured(peer: peer.address, ephemeralNodeID: NodeID(1))
        #expect(await node.sessionExists(handshake))
        #expect(await node.unsecuredSessionCount == 4)
        let stats = await node.statistics
        #expect(stats.unsecuredSessionsEvicted == 47)
        #expect(stats.droppedUnhandled == 50)
        #expect(await node.run { _ in holder.failures.isEmpty && holder.held.count == 1 })
        await node.stop()
    }

    @Test func whenEverySessionHoldsAnExchangeTheLeastRecentlyActiveGoes() async throws {
        let (node, endpoint, peer, clock, _) = await Self.nodeAndPeer { $0.unsecuredSessionCapacity = 3 }
        let holder = HoldingResponder()
        await node.setUnsolicitedHandler(holder, for: Self.held)
        for source in 1...4 {
            clock.advance(by: 10)
            try peer.send(Self.opener(from: UInt64(source), protocolID: Self.held), to: endpoint.address)
            await Self.waitUntilReceived(node, source)
        }
        #expect(await node.unsecuredSessionCount == 3)
        #expect(!(await node.sessionExists(.unsecured(peer: peer.address, ephemeralNodeID: NodeID(1)))))
        #expect(await node.sessionExists(.unsecured(peer: peer.address, ephemeralNodeID: NodeID(4))))
        // The evicted handshake's exchange failed and is gone.
        #expect(await node.run { _ in holder.failures.count == 1 })
        #expect(await node.openExchangeCount == 3)
        await node.stop()
    }

    @Test func closedExchangesAwaitingAcknowledgementAreCappedUnsecuredFirst() async throws {
        let network = InMemoryNetwork()
        let a = network.makeEndpoint(queue: DispatchQueue(label: "a"))
        let b = network.makeEndpoint(queue: DispatchQueue(label: "b"))
        let flooder = network.makeEndpoint(queue: DispatchQueue(label: "flooder"))
        let pair = await NodePair.make(
            initiator: a, initiatorAddress: a.address, responder: b,
            responderAddress: b.address, dispatchTimers: false
        ) {
            $0.closingExchangeCapacity = 8
        }
        await pair.responder.setUnsolicitedHandler(EchoResponder(), for: .echo)
        // The secure reply is lost, so the responder's closed exchange waits for its acknowledgement.
        network.setInterceptor { index, bytes in index == 1 ? nil : bytes }
        let request = Task {
            try? await echoRequest(node: pair.initiator, session: pair.initiatorSession, payload: [1])
        }
        await Self.waitUntilReceived(pair.responder, 1)
        #expect(await pair.responder.closingExchangeCount == 1)
        // 20 handshake-style requests from peers that never acknowledge the echo.
        for source in 1...20 {
            try flooder.send(Self.opener(from: UInt64(source), protocolID: .echo), to: b.address)
        }
        await Self.waitUntilReceived(pair.responder, 21)
        #expect(await pair.responder.closingExchangeCount == 8)
        #expect(await pair.responder.pendingRetransmissionCount == 8)
        #expect(await pair.responder.statistics.retransmissionsAbandoned == 13)
        let secureStillWaits = await pair.responder.run { node in
            node.closingExchanges.keys.contains { $0.session == pair.responderSession }
        }
        #expect(secureStillWaits)
        await pair.stop()
        _ = await request.value
    }

    @Test func aRequestClosedWithoutAnswerCountsAsDroppedByItsHandler() async throws {
        let (node, endpoint, peer, _, _) = await Self.nodeAndPeer { _ in }
        await node.setUnsolicitedHandler(SilentResponder(), for: Self.silent)
        await node.setUnsolicitedHandler(EchoResponder(), for: .echo)
        try peer.send(Self.opener(from: 1, protocolID: Self.silent), to: endpoint.address)
        try peer.send(Self.opener(from: 2, protocolID: .echo), to: endpoint.address)
        try peer.send(Self.opener(from: 3, protocolID: Self.nobody), to: endpoint.address)
        await Self.waitUntilReceived(node, 3)
        let stats = await node.statistics
        #expect(stats.droppedByHandler == 1)
        #expect(stats.droppedUnhandled == 1)
        #expect(stats.totalDropped == 2)
        await node.stop()
    }

    @Test func aReliableMessageNobodyAcknowledgesCountsOnceGivenUp() async throws {
        let (node, endpoint, peer, clock, _) = await Self.nodeAndPeer { _ in }
        await node.setUnsolicitedHandler(EchoResponder(), for: .echo)
        try peer.send(Self.opener(from: 1, protocolID: .echo), to: endpoint.address)
        await Self.waitUntilReceived(node, 1)
        while await node.pendingRetransmissionCount > 0 {
            clock.advance(by: 1_000)
            await node.serviceTimers()
        }
        let stats = await node.statistics
        #expect(stats.retransmissions == MRPBackoff.maxTransmissions - 1)
        #expect(stats.acknowledgementsMissed == 1)
        #expect(await node.closingExchangeCount == 0)
        await node.stop()
    }
}

@Suite("Retransmission table: the earliest deadline")
struct RetransmissionDeadlineTests {
    @Test func theDeadlineFollowsEveryChange() {
        var table = RetransmissionTable<Int>()
        let nowhere = UDPAddress(ip: [127, 0, 0, 1], port: 9)
        #expect(table.deadline() == nil)
        table.add(1, datagram: [1], destination: nowhere, counter: 10, now: 0, wait: 300)
        table.add(2, datagram: [2], destination: nowhere, counter: 20, now: 0, wait: 200)
        #expect(table.deadline() == 200)
        let acknowledged = table.acknowledge(2, counter: 20)
        #expect(acknowledged)
        #expect(table.deadline() == 300)
        table.reschedule(1, nextDue: 250)
        #expect(table.deadline() == 250)
        let actions = table.due(at: 250)
        #expect(actions.count == 1)
        #expect(table.deadline() == UInt64.max)  // resent: due again once the node reschedules it
        table.reschedule(1, nextDue: 900)
        #expect(table.deadline() == 900)
        table.remove(1)
        #expect(table.deadline() == nil)
    }
}

extension RetransmissionTable {
    /// `nextDeadline` through a copy (its getter caches, so it is mutating).
    func deadline() -> UInt64? {
        var copy = self
        return copy.nextDeadline
    }
}

/// Answers reliably, closes the exchange and forgets the unsecured session at once, as a refused
/// handshake does.
final class AnswerAndForgetResponder: UnsolicitedMessageHandler, @unchecked Sendable {
    func handleUnsolicited(_ message: ReceivedMessage, on exchange: Exchange, node: isolated TransportNode) {
        try? exchange.send(opcode: 2, payload: [])
        exchange.close()
        node.removeUnsecuredSession(exchange.session)
    }
}

@Suite("Transport node: acknowledgements for a finished handshake")
struct FinishedHandshakeAckTests {
    @Test func theAckSettlesTheRetransmissionAndIsNoDrop() async throws {
        let (node, endpoint, peer, _, network) = await BoundedStateTests.nodeAndPeer { _ in }
        await node.setUnsolicitedHandler(AnswerAndForgetResponder(), for: .echo)
        try peer.send(BoundedStateTests.opener(from: 5, protocolID: .echo, exchangeID: 9), to: endpoint.address)
        await BoundedStateTests.waitUntilReceived(node, 1)
        #expect(await node.closingExchangeCount == 1)
        #expect(await node.unsecuredSessionCount == 0)
        // The answer's counter, from the wire; the peer acknowledges it on the same exchange.
        var reader = ByteReader(try #require(network.log.last).bytes)
        let answer = try MessageHeader(from: &reader)
        var ack = ByteWriter()
        MessageHeader(sessionID: 0, messageCounter: 2, source: NodeID(5)).encode(into: &ack)
        PayloadHeader(
            isInitiator: true, needsAck: false, acknowledgedCounter: answer.messageCounter,
            opcode: SecureChannelOpcode.standaloneAck, exchangeID: 9, protocolID: .secureChannel
        )
        .encode(into: &ack)
        try peer.send(ack.bytes, to: endpoint.address)
        // And an acknowledgement of nothing we sent: that one is dropped.
        try peer.send(ack.bytes, to: endpoint.address)
        await BoundedStateTests.waitUntilReceived(node, 3)
        #expect(await node.closingExchangeCount == 0)
        #expect(await node.pendingRetransmissionCount == 0)
        #expect(await node.statistics.droppedUnknownSession == 1)
        await node.stop()
    }
}
