import Dispatch
import Foundation
import MatterTransport
import Synchronization
import Testing

@testable import MatterDiscovery

/// Two embedded responders/queriers in one process on the loopback interface (IPv4 multicast through `lo`, on a
/// port of the test's own so that nothing else on the host hears or answers): publish, browse, resolve,
/// conflict, goodbye, legacy unicast. Nothing leaves the machine.
@Suite("Embedded mDNS on loopback", .serialized)
struct EmbeddedMDNSLoopbackTests {
    /// A port no other test uses at the same time: the suite is serialized, other suites use no mDNS here,
    /// and the port is below the kernel's ephemeral range (32768 and up by default, read from
    /// ip_local_port_range), where the other tests' sockets bound to port 0 live. A port inside that range
    /// could be taken by any of them (bind failed with EADDRINUSE, 1 CI run).
    static func freshPort() -> UInt16 {
        var low: UInt16 = 32768
        if let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8),
            let first = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first,
            let value = UInt16(first)
        {
            low = value
        }
        return UInt16.random(in: 20000..<max(20001, min(low, 32768)))
    }

    static func start(port: UInt16, label: String? = nil) async throws -> EmbeddedMDNS {
        let loopback = try #require(MDNSInterface.all().first { $0.isLoopback && !$0.ipv4.isEmpty })
        return try await EmbeddedMDNS.start(
            EmbeddedMDNS.Configuration(interfaces: [loopback], port: port, ipv6: false, hostLabel: label))
    }

    static func commissionable(_ name: String, port: UInt16 = 5540) -> DNSSDServiceRecord {
        var txt = DNSSDTXTRecord()
        txt.append("D", "3840")
        txt.append("CM", "1")
        return DNSSDServiceRecord(
            serviceType: MatterDNSSD.commissionableServiceType, instanceName: name, port: port,
            subtypes: ["_L3840", "_S15", "_CM"], txt: txt)
    }

    @Test func publishedServiceIsFoundAndResolved() async throws {
        let port = Self.freshPort()
        let device = try await Self.start(port: port, label: "device-host")
        let controller = try await Self.start(port: port, label: "controller-host")
        defer {
            Task {
                await device.stop()
                await controller.stop()
            }
        }
        let publication = try await device.publish(Self.commissionable("A19F62D0BA2CFE68"))
        #expect(try await device.waitUntilEstablished(publication, timeout: .seconds(10)) == "A19F62D0BA2CFE68")

        let found = try await controller.browse(
            DNSSDQuery(serviceType: "_matterc._udp", subtype: "_L3840"), timeout: .seconds(10), limit: 1)
        let service = try #require(found.first)
        #expect(service.instanceName == "A19F62D0BA2CFE68")
        #expect(service.hostName == "device-host.local")
        #expect(service.port == 5540)
        #expect(service.txt["D"] == "3840")
        #expect(service.addresses.map(\.address) == ["127.0.0.1"])

        // The same through the Matter browser interface, by discriminator.
        let nodes = try await controller.discoverCommissionable(
            .longDiscriminator(3840), timeout: .seconds(10), limit: 1)
        #expect(nodes.first?.advertisement?.longDiscriminator == 3840)
        // A subtype nobody publishes finds nothing.
        let none = try await controller.browse(
            DNSSDQuery(serviceType: "_matterc._udp", subtype: "_L1"), timeout: .milliseconds(300), limit: 1)
        #expect(none.isEmpty)
    }

    @Test func twoPublishersOfOneNameEndWithDistinctNames() async throws {
        let port = Self.freshPort()
        let first = try await Self.start(port: port, label: "first-host")
        let second = try await Self.start(port: port, label: "second-host")
        defer {
            Task {
                await first.stop()
                await second.stop()
            }
        }
        let a = try await first.publish(Self.commissionable("0123456789ABCDEF", port: 5540))
        let b = try await second.publish(Self.commissionable("0123456789ABCDEF", port: 5541))
        let nameA = try await first.waitUntilEstablished(a, timeout: .seconds(20))
        let nameB = try await second.waitUntilEstablished(b, timeout: .seconds(20))
        #expect(nameA != nameB)
        // One of them kept the name; the other took a fresh random one (the commissionable renaming rule).
        #expect([nameA, nameB].contains("0123456789ABCDEF"))
        #expect(MatterInstanceName.isRandomHex(nameA) && MatterInstanceName.isRandomHex(nameB))

        let browser = try await Self.start(port: port)
        defer { Task { await browser.stop() } }
        let found = try await browser.browse(DNSSDQuery(serviceType: "_matterc._udp"), timeout: .seconds(10), limit: 2)
        #expect(Set(found.map(\.instanceName)) == [nameA, nameB])
        #expect(Set(found.map(\.port)) == [5540, 5541])
    }

    @Test func withdrawnServiceSaysGoodbye() async throws {
        let port = Self.freshPort()
        let device = try await Self.start(port: port)
        let controller = try await Self.start(port: port)
        defer {
            Task {
                await device.stop()
                await controller.stop()
            }
        }
        let publication = try await device.publish(Self.commissionable("1111222233334444"))
        _ = try await device.waitUntilEstablished(publication, timeout: .seconds(10))
        let query = DNSSDQuery(serviceType: "_matterc._udp", instanceName: "1111222233334444")
        #expect(try await controller.browse(query, timeout: .seconds(10), limit: 1).count == 1)
        await device.withdraw(publication)
        // The goodbye leaves the record one second in the cache (RFC 6762 §10.1); after that nothing answers.
        var gone = false
        for _ in 0..<20 where !gone {
            try await Task.sleep(for: .milliseconds(500))
            gone = try await controller.browse(query, timeout: .milliseconds(200), limit: 1).isEmpty
        }
        #expect(gone)
    }

    @Test func legacyUnicastQueryIsAnsweredToItsPort() async throws {
        let port = Self.freshPort()
        let device = try await Self.start(port: port, label: "legacy-host")
        defer { Task { await device.stop() } }
        let publication = try await device.publish(Self.commissionable("AAAABBBBCCCCDDDD"))
        _ = try await device.waitUntilEstablished(publication, timeout: .seconds(10))

        // A one-shot querier on an ephemeral port asks the responder directly.
        let queue = DispatchQueue(label: "legacy-querier")
        let endpoint = try UDPEndpoint(queue: queue)
        let received = Mutex<[[UInt8]]>([])
        endpoint.start { datagram in received.withLock { $0.append(datagram.bytes) } }
        defer { queue.sync { endpoint.close() } }
        let instance = try MDNSServiceRecords.instanceName("AAAABBBBCCCCDDDD", serviceType: "_matterc._udp")
        let query = DNSMessage(id: 0x4242, questions: [DNSQuestion(name: instance, type: .srv)])
        let destination = try #require(UDPAddress(host: "127.0.0.1", port: port))
        var answer: DNSMessage?
        for _ in 0..<20 where answer == nil {
            try endpoint.send(query.serialize(), to: destination)
            try await Task.sleep(for: .milliseconds(250))
            answer = received.withLock { $0.compactMap { try? DNSMessage(bytes: $0) }.first }
        }
        let response = try #require(answer)
        #expect(response.id == 0x4242)
        #expect(response.questions == query.questions)
        #expect(response.answers.map(\.type) == [.srv])
        #expect((response.answers + response.additionals).allSatisfy { $0.ttl <= 10 && !$0.cacheFlush })
        #expect(response.additionals.map(\.data) == [.a([127, 0, 0, 1])])
    }
}

/// A scripted peer on the group: answers the browse's PTR question once, and the instance's SRV/TXT only when
/// asked a second time, so the querier must ask again for what is missing although nothing new arrives.
@Suite("Embedded mDNS querier retries", .serialized)
struct EmbeddedMDNSRetryTests {
    final class Peer: @unchecked Sendable {
        // @unchecked: `socket` and the counters are used only on `queue`.
        let queue = DispatchQueue(label: "scripted-peer")
        var socket: MDNSSocket?
        var serviceQuestions = 0
        var answeredPTR = false
    }

    @Test func missingRecordsAreAskedForAgainWithoutNewArrivals() async throws {
        let port = EmbeddedMDNSLoopbackTests.freshPort()
        let loopback = try #require(MDNSInterface.all().first { $0.isLoopback && !$0.ipv4.isEmpty })
        let type = try MDNSServiceRecords.serviceName("_matterc._udp")
        let instance = try MDNSServiceRecords.instanceName("5555666677778888", serviceType: "_matterc._udp")
        let host = try DNSName("scripted.local")
        let peer = Peer()
        let socket = try MDNSSocket(family: .ipv4, port: port, interfaces: [loopback], queue: peer.queue)
        peer.socket = socket
        socket.start { [peer] datagram in
            guard let query = try? DNSMessage(bytes: datagram.bytes), !query.isResponse else { return }
            if !peer.answeredPTR, query.questions.contains(where: { $0.name == type && $0.type == .ptr }) {
                peer.answeredPTR = true
                peer.socket?.sendMulticast(
                    DNSMessage.response(answers: [DNSResourceRecord(name: type, data: .ptr(instance), ttl: 4500)])
                        .serialize())
            }
            guard query.questions.contains(where: { $0.name == instance && $0.type == .srv }) else { return }
            peer.serviceQuestions += 1
            guard peer.serviceQuestions >= 2 else { return }  // the first question goes unanswered
            peer.socket?.sendMulticast(
                DNSMessage.response(answers: [
                    DNSResourceRecord(
                        name: instance, data: .srv(priority: 0, weight: 0, port: 5540, target: host), ttl: 120,
                        cacheFlush: true),
                    DNSResourceRecord(name: instance, data: .txt([Array("D=840".utf8)]), ttl: 4500, cacheFlush: true),
                    DNSResourceRecord(name: host, data: .a([127, 0, 0, 1]), ttl: 120, cacheFlush: true),
                ]).serialize())
        }
        defer { peer.queue.sync { socket.close() } }
        let browser = try await EmbeddedMDNSLoopbackTests.start(port: port)
        let found = try await browser.browse(DNSSDQuery(serviceType: "_matterc._udp"), timeout: .seconds(5), limit: 1)
        await browser.stop()
        #expect(found.map(\.instanceName) == ["5555666677778888"])
        #expect(found.first?.txt["D"] == "840")
        #expect(peer.queue.sync { peer.serviceQuestions } >= 2)
    }
}
