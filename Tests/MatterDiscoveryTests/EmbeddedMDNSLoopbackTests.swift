import Dispatch
import Foundation
import MatterCore
import MatterTestSupport
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
    /// and the port is below the kernel's ephemeral range (`TestPorts`), where the other tests' sockets bound
    /// to port 0 live (a port inside it was taken once: bind failed with EADDRINUSE, 1 CI run).
    static func freshPort() -> UInt16 { TestPorts.freeUDP() }

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

    /// A fleet's worth of instances on one host, each found and resolved by the other querier (the querier
    /// re-reads only the instances each packet bears on; the responder's announcements share the host's address
    /// records between instances).
    @Test func aFleetOfInstancesIsFoundWhole() async throws {
        let port = Self.freshPort()
        let device = try await Self.start(port: port, label: "fleet-host")
        let controller = try await Self.start(port: port, label: "controller-host")
        defer {
            Task {
                await device.stop()
                await controller.stop()
            }
        }
        let names = (0..<300).map { String(format: "%016X", 0xF1EE_0000 + $0) }
        for (offset, name) in names.enumerated() {
            _ = try await device.publish(Self.commissionable(name, port: UInt16(6000 + offset)))
        }
        let found = try await controller.browse(
            DNSSDQuery(serviceType: "_matterc._udp"), timeout: .seconds(20), limit: names.count)
        #expect(Set(found.map(\.instanceName)) == Set(names))
        for service in found {
            let offset = try #require(names.firstIndex(of: service.instanceName))
            #expect(service.port == UInt16(6000 + offset))
            #expect(service.addresses.map(\.address) == ["127.0.0.1"])
        }
    }

    @Test func twoPublishersOfOneNameEndWithDistinctNames() async throws {
        let port = Self.freshPort()
        let trace = Trace()
        let first = try await Self.start(port: port, label: "first-host")
        let second = try await Self.start(port: port, label: "second-host")
        await first.setTrace(trace.recorder("A"))
        await second.setTrace(trace.recorder("B"))
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
        trace.record("test", "established: A \(nameA), B \(nameB)")
        #expect(nameA != nameB, trace.comment)
        // One of them kept the name; the other took a fresh random one (the commissionable renaming rule).
        #expect([nameA, nameB].contains("0123456789ABCDEF"), trace.comment)
        #expect(MatterInstanceName.isRandomHex(nameA) && MatterInstanceName.isRandomHex(nameB))

        let browser = try await Self.start(port: port)
        await browser.setTrace(trace.recorder("C"))
        defer { Task { await browser.stop() } }
        let found = try await browser.browse(DNSSDQuery(serviceType: "_matterc._udp"), timeout: .seconds(10), limit: 2)
        trace.record("test", "found \(found.map(\.instanceName))")
        #expect(Set(found.map(\.instanceName)) == [nameA, nameB], trace.comment)
        #expect(Set(found.map(\.port)) == [5540, 5541])
    }

    /// Queriers that share the responder's port on its host (other processes, other responders) all hear its
    /// answers: a QM question is answered by multicast, and so is a QU question from this host, since the
    /// kernel would hand a unicast answer to any one socket bound to the port (here the browser of
    /// `twoPublishersOfOneNameEndWithDistinctNames` never heard one responder: its answers, taken for legacy
    /// unicast ones, went to the other responder's socket; 2 CI runs, then 1 of 1 full local runs).
    @Test func everyQuerierSharingThePortHearsTheAnswers() async throws {
        let port = Self.freshPort()
        let trace = Trace()
        let device = try await Self.start(port: port, label: "shared-host")
        await device.setTrace(trace.recorder("R"))
        defer { Task { await device.stop() } }
        let publication = try await device.publish(Self.commissionable("9999888877776666"))
        _ = try await device.waitUntilEstablished(publication, timeout: .seconds(10))
        // The two announcements are over before the queriers open, so only answers can reach them.
        while trace.count(containing: "-> multicast response") < 2 { try await Task.sleep(for: .milliseconds(20)) }

        let loopback = try #require(MDNSInterface.all().first { $0.isLoopback && !$0.ipv4.isEmpty })
        let queue = DispatchQueue(label: "shared-port-queriers")
        let heard = Mutex<[Int: [DNSMessage]]>([:])
        var sockets: [MDNSSocket] = []
        for number in 0..<2 {
            let socket = try MDNSSocket(family: .ipv4, port: port, interfaces: [loopback], queue: queue)
            socket.start { datagram in
                guard let message = try? DNSMessage(bytes: datagram.bytes), message.isResponse else { return }
                heard.withLock { $0[number, default: []].append(message) }
            }
            sockets.append(socket)
        }
        defer { queue.sync { for socket in sockets { socket.close() } } }
        let instance = try MDNSServiceRecords.instanceName("9999888877776666", serviceType: "_matterc._udp")
        let questions = [
            DNSQuestion(name: try MDNSServiceRecords.serviceName("_matterc._udp"), type: .ptr),
            DNSQuestion(name: instance, type: .srv, unicastResponse: true),
        ]
        for question in questions {
            heard.withLock { $0 = [:] }
            func bothHeard() -> Bool {
                heard.withLock { all in
                    (0..<2).allSatisfy { number in
                        (all[number] ?? []).contains { $0.answers.contains { $0.name == question.name } }
                    }
                }
            }
            // Asked again until answered: the responder does not multicast a record twice within a second (§6).
            for _ in 0..<20 where !bothHeard() {
                let query = DNSMessage(questions: [question]).serialize()
                queue.sync { _ = sockets[0].sendMulticast(query) }
                try await Task.sleep(for: .milliseconds(250))
            }
            #expect(bothHeard(), Comment(rawValue: "\(question)\n" + trace.comment.rawValue))
        }
    }

    @Test func withdrawnServiceSaysGoodbye() async throws {
        let port = Self.freshPort()
        let device = try await Self.start(port: port)
        let controller = try await Self.start(port: port)
        let trace = Trace()
        await device.setTrace(trace.recorder("D"))
        await controller.setTrace(trace.recorder("C"))
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
        #expect(gone, trace.comment)
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
    @Test func anOperationalRecordIsAnnouncedAtOnceWhileACommissionableOneIsProbedFirst() async throws {
        let port = Self.freshPort()
        let device = try await Self.start(port: port, label: "device-host")
        defer { Task { await device.stop() } }
        let operational = try await device.publish(
            OperationalAdvertisement(compressedFabricID: 0x87E1_B004_E235_A130, nodeID: NodeID(0x1234), port: 5540)
                .serviceRecord())
        let commissionable = try await device.publish(Self.commissionable("A19F62D0BA2CFE69"))
        // No probing for the node's fabric-assigned name (RFC 6762 §8.1 probing takes about 0.8 s).
        #expect(await !device.isProbing(operational))
        #expect(await device.isProbing(commissionable))
    }
}

/// A scripted peer that answers the browse with the instance's PTR, SRV and TXT but not its host's address, and
/// the address only when asked for it: the querier must resolve the instance when the address comes alone.
@Suite("Embedded mDNS querier and late addresses", .serialized)
struct EmbeddedMDNSLateAddressTests {
    final class Peer: @unchecked Sendable {
        // @unchecked: `socket` and the counter are used only on `queue`.
        let queue = DispatchQueue(label: "scripted-address-peer")
        var socket: MDNSSocket?
        var addressQuestions = 0
        /// The QU bit of each PTR question of the browse, in order.
        var browseQuestionsQU: [Bool] = []
    }

    @Test func anAddressArrivingAloneResolvesTheInstancesOnItsHost() async throws {
        let port = EmbeddedMDNSLoopbackTests.freshPort()
        let loopback = try #require(MDNSInterface.all().first { $0.isLoopback && !$0.ipv4.isEmpty })
        let type = try MDNSServiceRecords.serviceName("_matterc._udp")
        let instances = try ["1111222233334444", "5555666677778888"].map {
            try MDNSServiceRecords.instanceName($0, serviceType: "_matterc._udp")
        }
        let host = try DNSName("late-address.local")
        let peer = Peer()
        let socket = try MDNSSocket(family: .ipv4, port: port, interfaces: [loopback], queue: peer.queue)
        peer.socket = socket
        socket.start { [peer] datagram in
            guard let query = try? DNSMessage(bytes: datagram.bytes), !query.isResponse else { return }
            if let question = query.questions.first(where: { $0.name == type && $0.type == .ptr }) {
                peer.browseQuestionsQU.append(question.unicastResponse)
                var answers: [DNSResourceRecord] = []
                for (offset, instance) in instances.enumerated() {
                    answers += [
                        DNSResourceRecord(name: type, data: .ptr(instance), ttl: 4500),
                        DNSResourceRecord(
                            name: instance,
                            data: .srv(priority: 0, weight: 0, port: UInt16(5540 + offset), target: host),
                            ttl: 120, cacheFlush: true),
                        DNSResourceRecord(
                            name: instance, data: .txt([Array("D=84\(offset)".utf8)]), ttl: 4500, cacheFlush: true),
                    ]
                }
                peer.socket?.sendMulticast(DNSMessage.response(answers: answers).serialize())
            }
            if query.questions.contains(where: { $0.name == host && $0.type == .a }) {
                peer.addressQuestions += 1
                peer.socket?.sendMulticast(
                    DNSMessage.response(answers: [
                        DNSResourceRecord(name: host, data: .a([127, 0, 0, 1]), ttl: 120, cacheFlush: true)
                    ]).serialize())
            }
        }
        defer { peer.queue.sync { socket.close() } }
        let browser = try await EmbeddedMDNSLoopbackTests.start(port: port)
        let found = try await browser.browse(DNSSDQuery(serviceType: "_matterc._udp"), timeout: .seconds(5), limit: 2)
        await browser.stop()
        #expect(found.map(\.instanceName).sorted() == ["1111222233334444", "5555666677778888"])
        #expect(found.map(\.port).sorted() == [5540, 5541])
        #expect(found.allSatisfy { $0.addresses.map(\.address) == ["127.0.0.1"] })
        #expect(peer.queue.sync { peer.addressQuestions } >= 1)
        // A browse's first query asks for unicast answers (RFC 6762 §5.4).
        #expect(peer.queue.sync { peer.browseQuestionsQU.first } == true)
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

/// What the responders of one test sent, received and decided, with the time since the test began: attached to
/// a failed expectation, it tells why a name was lost or a service not found.
final class Trace: Sendable {
    private let start = ContinuousClock.now
    private let lines = Mutex<[String]>([])

    func record(_ who: String, _ line: String) {
        let elapsed = start.duration(to: .now).components
        let milliseconds = elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
        lines.withLock { $0.append("\(milliseconds) ms \(who) \(line)") }
    }

    func count(containing text: String) -> Int { lines.withLock { $0.filter { $0.contains(text) }.count } }

    func recorder(_ who: String) -> @Sendable (String) -> Void { { [self] line in record(who, line) } }

    var comment: Comment { Comment(rawValue: "trace:\n" + lines.withLock { $0.joined(separator: "\n") }) }
}
