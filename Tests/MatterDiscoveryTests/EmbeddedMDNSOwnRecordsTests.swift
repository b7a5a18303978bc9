import Dispatch
import MatterCore
import Testing

@testable import MatterDiscovery

extension EmbeddedMDNSLoopbackTests {
    /// A process browsing for its own services (a fleet's device for a sibling) reads them from its responder's
    /// index: the echoes of its own multicast are dropped unread, so nothing of its own is parsed and cached; a
    /// browse started before a publication finds it once it is established, and a withdrawn one is gone at once.
    @Test func ownServicesAreReadFromTheIndexAndOwnEchoesAreDropped() async throws {
        let port = Self.freshPort()
        let loopback = try #require(MDNSInterface.all().first { $0.isLoopback && !$0.ipv4.isEmpty })
        let fleet = try await Self.start(port: port, label: "own-host")
        let trace = Trace()
        await fleet.setTrace(trace.recorder("F"))
        defer { Task { await fleet.stop() } }

        let operationalQuery = DNSSDQuery(serviceType: "_matter._tcp")
        async let early = fleet.browse(operationalQuery, timeout: .seconds(10), limit: 1)
        let operational = try await fleet.publish(
            OperationalAdvertisement(compressedFabricID: 0x87E1_B004_E235_A131, nodeID: NodeID(0x42), port: 5541)
                .serviceRecord())
        let first = try #require(try await early.first, trace.comment)
        #expect(first.port == 5541)
        #expect(first.hostName == "own-host.local")
        #expect(first.addresses == [DNSSDAddress(bytes: [127, 0, 0, 1], interfaceIndex: loopback.index)])

        let commissionable = try await fleet.publish(Self.commissionable("0123456789ABCDEF", port: 5542))
        _ = try await fleet.waitUntilEstablished(commissionable, timeout: .seconds(10))
        let found = try await fleet.browse(
            DNSSDQuery(serviceType: "_matterc._udp", subtype: "_L3840"), timeout: .seconds(10), limit: 1)
        #expect(found.map(\.instanceName) == ["0123456789ABCDEF"], trace.comment)
        #expect(found.first?.txt["D"] == "3840")

        await fleet.withdraw(operational)
        #expect(try await fleet.browse(operationalQuery, timeout: .milliseconds(300), limit: 1).isEmpty)
        // Its probes and announcements came back through the loopback and were dropped unread.
        #expect(await fleet.echoesDropped > 0, trace.comment)
        #expect(await fleet.cachedRecords == 0, trace.comment)
    }

    /// Another querier's query of the bytes ours would have without our random ID (ID 0, the same question, no
    /// known answers), sent just after ours, is answered: only the echoes of our own queries are dropped.
    @Test func anotherQueriersQueryLikeOursIsAnswered() async throws {
        let port = Self.freshPort()
        let loopback = try #require(MDNSInterface.all().first { $0.isLoopback && !$0.ipv4.isEmpty })
        let type = try MDNSServiceRecords.serviceName("_matter._tcp")
        let peer = QueryLikeOursPeer()
        let socket = try MDNSSocket(family: .ipv4, port: port, interfaces: [loopback], queue: peer.queue)
        peer.socket = socket
        socket.start { [peer] datagram in
            guard let message = try? DNSMessage(bytes: datagram.bytes) else { return }
            if !message.isResponse, !peer.asked,
                let question = message.questions.first(where: { $0.name == type && $0.type == .ptr })
            {
                // The device's own browse query: the same question from us, with ID 0, as another querier sends it.
                peer.asked = true
                peer.socket?.sendMulticast(DNSMessage(questions: [question]).serialize())
            } else if message.isResponse, message.answers.contains(where: { $0.name == type && $0.type == .ptr }) {
                if peer.asked { peer.answered = true } else { peer.announcements += 1 }
            }
        }
        defer { peer.queue.sync { socket.close() } }
        let device = try await Self.start(port: port, label: "like-ours-host")
        defer { Task { await device.stop() } }
        _ = try await device.publish(
            OperationalAdvertisement(compressedFabricID: 0x87E1_B004_E235_A132, nodeID: NodeID(0x43), port: 5543)
                .serviceRecord())
        // After its two announcements, a second apart (§8.3), and past the second's one-second floor (§6),
        // counted from when the peer heard it.
        var announced = false
        for _ in 0..<100 where !announced {
            try await Task.sleep(for: .milliseconds(50))
            announced = peer.queue.sync { peer.announcements } >= 2
        }
        try #require(announced, "the device's two announcements were not heard")
        try await Task.sleep(for: .milliseconds(1200))
        let browse = Task { try await device.browse(DNSSDQuery(serviceType: "_matter._tcp"), timeout: .seconds(3)) }
        var answered = false
        for _ in 0..<30 where !answered {
            try await Task.sleep(for: .milliseconds(100))
            answered = peer.queue.sync { peer.answered }
        }
        browse.cancel()
        #expect(peer.queue.sync { peer.asked }, "the device's browse query was not heard")
        #expect(answered)
    }
}

/// The scripted querier of `anotherQueriersQueryLikeOursIsAnswered`.
final class QueryLikeOursPeer: @unchecked Sendable {
    // @unchecked: `socket` and the flags are used only on `queue`.
    let queue = DispatchQueue(label: "query-like-ours-peer")
    var socket: MDNSSocket?
    var announcements = 0
    var asked = false
    var answered = false
}
