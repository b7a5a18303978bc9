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
}
