import Dispatch
import MatterTestSupport
import Synchronization
import Testing

@testable import MatterTransport

/// Real UDP on loopback: one dual-stack socket serves IPv6 and (v4-mapped) IPv4 peers.
@Suite("UDP endpoint on loopback")
struct UDPEndpointTests {
    @Test(arguments: ["::1", "127.0.0.1"])
    func echoesOverLoopbackWithPacketInfo(host: String) async throws {
        let server = try UDPEndpoint(queue: DispatchQueue(label: "server"))
        let client = try UDPEndpoint(queue: DispatchQueue(label: "client"))
        server.start { [server] datagram in try? server.send(datagram.bytes.reversed(), to: datagram.source) }
        let reply: Datagram = try await withCheckedThrowingContinuation { continuation in
            let once = Mutex(false)
            client.start { datagram in
                if once.withLock({
                    let first = !$0
                    $0 = true
                    return first
                }) {
                    continuation.resume(returning: datagram)
                }
            }
            do {
                try client.send([1, 2, 3], to: #require(UDPAddress(host: host, port: server.port)))
            } catch {
                continuation.resume(throwing: error)
            }
        }
        #expect(reply.bytes == [3, 2, 1])
        #expect(reply.source.port == server.port)
        #expect(reply.source.isIPv4 == (host == "127.0.0.1"))
        #expect(reply.localAddress != nil)
        #expect(reply.interfaceIndex != 0)
        server.queue.sync { server.close() }
        client.queue.sync { client.close() }
    }

    @Test func parsesEndpointsAndPrintsThem() throws {
        let v4 = try #require(UDPAddress(endpoint: "127.0.0.1:5540"))
        #expect(v4.isIPv4)
        #expect(v4.description == "127.0.0.1:5540")
        let v6 = try #require(UDPAddress(endpoint: "[::1]:5541"))
        #expect(v6.description == "[::1]:5541")
        let scoped = try #require(UDPAddress(endpoint: "[fe80::1%1]:5540"))
        #expect(scoped.isLinkLocal)
        #expect(scoped.scopeID == 1)
        #expect(UDPAddress(endpoint: "::1:5540") == nil)
        #expect(UDPAddress(endpoint: "example:5540") == nil)
        #expect(UDPAddress(endpoint: "127.0.0.1:70000") == nil)
        #expect(UDPAddress(endpoint: "[fe80::1%no-such-if]:5540") == nil)
    }
}
