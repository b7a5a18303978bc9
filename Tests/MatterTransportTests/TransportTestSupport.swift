import Dispatch
import MatterCore
import MatterTestSupport

@testable import MatterTransport

/// Echoes every request back with opcode + 1, on the responder's queue.
final class EchoResponder: UnsolicitedMessageHandler, @unchecked Sendable {
    // @unchecked: used only on its node's queue.
    var received: [ReceivedMessage] = []

    func handleUnsolicited(_ message: ReceivedMessage, on exchange: Exchange, node: isolated TransportNode) {
        received.append(message)
        try? exchange.send(opcode: message.opcode &+ 1, payload: message.payload.reversed())
        exchange.close()
    }
}

/// Two nodes with a secure session between them (random keys, as if PASE had run).
struct NodePair {
    let initiator: TransportNode
    let responder: TransportNode
    let initiatorSession: SessionID
    let responderSession: SessionID

    static func make(
        initiator: any DatagramTransport, initiatorAddress: UDPAddress,
        responder: any DatagramTransport, responderAddress: UDPAddress,
        clock: any MatterClock = SystemClock(), dispatchTimers: Bool = true, seed: UInt64 = 7,
        kind: SecureSessionKind = .pase, configure: (inout TransportNode.Configuration) -> Void = { _ in }
    ) async -> NodePair {
        var configuration = TransportNode.Configuration()
        configure(&configuration)
        configuration.usesDispatchTimers = dispatchTimers
        configuration.randomSeed = seed
        let a = TransportNode(transport: initiator, clock: clock, configuration: configuration)
        configuration.randomSeed = seed &+ 1
        let b = TransportNode(transport: responder, clock: clock, configuration: configuration)
        await a.start()
        await b.start()
        var random = SeededRandom(seed: seed)
        let i2r = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let r2i = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let challenge = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let aID = await a.allocateSessionID()
        let bID = await b.allocateSessionID()
        let aSession = await a.addSecureSession(
            SecureSessionParameters(
                kind: kind, localSessionID: aID, peerSessionID: bID,
                keys: SessionKeys(i2r: i2r, r2i: r2i, attestationChallenge: challenge, isInitiator: true),
                peerAddress: responderAddress, peerMRP: .default, isInitiator: true))
        let bSession = await b.addSecureSession(
            SecureSessionParameters(
                kind: kind, localSessionID: bID, peerSessionID: aID,
                keys: SessionKeys(i2r: i2r, r2i: r2i, attestationChallenge: challenge, isInitiator: false),
                peerAddress: initiatorAddress, peerMRP: .default, isInitiator: false))
        return NodePair(initiator: a, responder: b, initiatorSession: aSession, responderSession: bSession)
    }

    func stop() async {
        await initiator.stop()
        await responder.stop()
    }
}

/// Runs one request/response on `session` from inside the node's isolation.
func echoRequest(node: isolated TransportNode, session: SessionID, payload: [UInt8], timeout: UInt64 = 10_000)
    async throws -> ReceivedMessage
{
    let exchange = try node.openExchange(on: session, protocolID: .echo)
    defer { exchange.close() }
    return try await exchange.request(opcode: 1, payload: payload, timeout: timeout)
}
