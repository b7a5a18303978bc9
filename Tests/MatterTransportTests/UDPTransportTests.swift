import Dispatch
import MatterTestSupport
import Testing

@testable import MatterTransport

@Suite("Encrypted exchanges over real UDP on loopback")
struct UDPTransportTests {
    @Test(arguments: ["127.0.0.1", "::1"])
    func twoNodesExchangeEncryptedMessagesBothWays(host: String) async throws {
        let a = try UDPEndpoint(queue: DispatchQueue(label: "udp-a"))
        let b = try UDPEndpoint(queue: DispatchQueue(label: "udp-b"))
        let pair = await NodePair.make(
            initiator: a, initiatorAddress: try #require(UDPAddress(host: host, port: a.port)),
            responder: b, responderAddress: try #require(UDPAddress(host: host, port: b.port)))
        await pair.initiator.setUnsolicitedHandler(EchoResponder(), for: .echo)
        await pair.responder.setUnsolicitedHandler(EchoResponder(), for: .echo)
        for i in 0..<20 {
            let payload = [UInt8](repeating: UInt8(i), count: 100) + [0xFF]
            let reply = try await echoRequest(node: pair.initiator, session: pair.initiatorSession, payload: payload)
            #expect(reply.payload == payload.reversed())
            #expect(reply.peerAddress.isIPv4 == (host == "127.0.0.1"))
        }
        let back = try await echoRequest(node: pair.responder, session: pair.responderSession, payload: [5, 6])
        #expect(back.payload == [6, 5])
        let stats = await pair.responder.statistics
        #expect(stats.droppedUnauthenticated == 0)
        await pair.stop()
    }
}
