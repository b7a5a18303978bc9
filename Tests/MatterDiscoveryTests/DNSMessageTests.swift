import Testing

@testable import MatterDiscovery

/// Hand-built byte vectors (offsets in the comments) through the DNS message codec.
@Suite("DNS message codec")
struct DNSMessageTests {
    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
    static func label(_ text: String) -> [UInt8] { [UInt8(text.utf8.count)] + ascii(text) }

    /// A commissionable node's answer: PTR, then SRV, TXT and A as additionals, names compressed at the
    /// first occurrence of every suffix (what our writer produces, so it also serializes back byte for byte).
    static let response: [UInt8] =
        [0x00, 0x00, 0x84, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x03]
        // 12: _matterc._udp.local  (21: _udp.local, 26: local)
        + label("_matterc") + label("_udp") + label("local") + [0]
        // 33: PTR IN ttl 4500, RDATA 7 bytes at 43: ABCD + pointer to 12
        + [0x00, 0x0C, 0x00, 0x01, 0x00, 0x00, 0x11, 0x94, 0x00, 0x07] + label("ABCD") + [0xC0, 0x0C]
        // 50: SRV, owner pointer to 43, cache-flush, ttl 120, RDATA 13: 0 0 5540 host(68).local(pointer 26)
        + [0xC0, 0x2B, 0x00, 0x21, 0x80, 0x01, 0x00, 0x00, 0x00, 0x78, 0x00, 0x0D]
        + [0x00, 0x00, 0x00, 0x00, 0x15, 0xA4] + label("host") + [0xC0, 0x1A]
        // 75: TXT, owner pointer to 43, cache-flush, ttl 4500, RDATA 12
        + [0xC0, 0x2B, 0x00, 0x10, 0x80, 0x01, 0x00, 0x00, 0x11, 0x94, 0x00, 0x0C] + label("D=3840") + label("CM=1")
        // 99: A, owner pointer to 68 (host.local), cache-flush, ttl 120, 10.0.0.1
        + [0xC0, 0x44, 0x00, 0x01, 0x80, 0x01, 0x00, 0x00, 0x00, 0x78, 0x00, 0x04, 0x0A, 0x00, 0x00, 0x01]

    @Test func decodesACompressedResponse() throws {
        let message = try DNSMessage(bytes: Self.response)
        #expect(message.isResponse)
        #expect(message.flags == 0x8400)
        #expect(message.questions.isEmpty)
        let service = try DNSName("_matterc._udp.local")
        let instance = try service.prepending(Self.ascii("ABCD"))
        let host = try DNSName("host.local")
        #expect(message.answers == [DNSResourceRecord(name: service, data: .ptr(instance), ttl: 4500)])
        #expect(
            message.additionals == [
                DNSResourceRecord(
                    name: instance, data: .srv(priority: 0, weight: 0, port: 5540, target: host), ttl: 120,
                    cacheFlush: true),
                DNSResourceRecord(
                    name: instance, data: .txt([Self.ascii("D=3840"), Self.ascii("CM=1")]), ttl: 4500, cacheFlush: true),
                DNSResourceRecord(name: host, data: .a([10, 0, 0, 1]), ttl: 120, cacheFlush: true),
            ])
    }

    @Test func serializesWithTheSameCompression() throws {
        let message = try DNSMessage(bytes: Self.response)
        #expect(message.serialize() == Self.response)
    }

    @Test func decodesAQUQuestion() throws {
        let query: [UInt8] =
            [0x12, 0x34, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
            + Self.label("_matterc") + Self.label("_udp") + Self.label("local") + [0, 0x00, 0x0C, 0x80, 0x01]
        let message = try DNSMessage(bytes: query)
        #expect(message.id == 0x1234)
        #expect(!message.isResponse)
        #expect(
            message.questions == [
                DNSQuestion(name: try DNSName("_matterc._udp.local"), type: .ptr, unicastResponse: true)
            ]
        )
        #expect(message.serialize() == query)
    }

    @Test func namesCompareCaseInsensitivelyAndKeepTheirCase() throws {
        let upper = try DNSName("ABCD._Matterc._UDP.local")
        let lower = try DNSName("abcd._matterc._udp.local")
        #expect(upper == lower)
        #expect(upper.hashValue == lower.hashValue)
        #expect(upper.description == "ABCD._Matterc._UDP.local")
        #expect(
            try DNSName(labels: [Self.ascii("Living.Room"), Self.ascii("local")]).description == #"Living\.Room.local"#)
    }

    @Test func nsecTypeBitmap() throws {
        // RFC 6762 §6.1: a host's NSEC asserting A and AAAA: window 0, 4 bytes, A = bit 1, AAAA = bit 28.
        let host = try DNSName("host.local")
        let record = DNSResourceRecord(
            name: host, data: .nsec(next: host, types: [.a, .aaaa]), ttl: 120, cacheFlush: true)
        #expect(
            record.data.canonicalBytes == Self.label("host") + Self.label("local") + [
                0, 0x00, 0x04, 0x40, 0x00, 0x00, 0x08,
            ])
        let message = DNSMessage.response(answers: [record])
        #expect(try DNSMessage(bytes: message.serialize()) == message)
    }

    @Test func roundTripsEveryRecordKind() throws {
        let name = try DNSName("x.local")
        let message = DNSMessage(
            id: 7, flags: 0,
            questions: [DNSQuestion(name: name, type: .any)],
            answers: [
                DNSResourceRecord(
                    name: name, data: .aaaa([0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [1]), ttl: 1),
                DNSResourceRecord(name: name, data: .txt([]), ttl: 2),
                DNSResourceRecord(name: name, data: .txt([[]]), ttl: 2),
                DNSResourceRecord(name: name, data: .other(DNSRecordType(rawValue: 99), [1, 2, 3]), ttl: 3),
            ],
            authorities: [DNSResourceRecord(name: name, data: .ptr(try DNSName("y.local")), ttl: 4)])
        #expect(try DNSMessage(bytes: message.serialize()) == message)
    }

    // MARK: - bad input

    static func header(questions: UInt8 = 0, answers: UInt8 = 0) -> [UInt8] {
        [0, 0, 0, 0, 0, questions, 0, answers, 0, 0, 0, 0]
    }

    static func code(_ bytes: [UInt8]) -> DNSMessageError.Code? {
        do {
            _ = try DNSMessage(bytes: bytes)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func refusesPointerLoops() {
        // A pointer to itself, a pointer forwards, two pointers at each other, and a name that leads back
        // into itself (label at 12, then a pointer to 12).
        #expect(Self.code(Self.header(questions: 1) + [0xC0, 0x0C, 0, 1, 0, 1]) == .pointerLoop)
        #expect(Self.code(Self.header(questions: 1) + [0xC0, 0x0E, 0, 1, 0, 1, 0]) == .pointerLoop)
        #expect(
            Self.code(Self.header(questions: 2) + [0xC0, 0x12, 0, 1, 0, 1, 0xC0, 0x0C, 0, 1, 0, 1]) == .pointerLoop)
        #expect(Self.code(Self.header(questions: 1) + Self.label("abc") + [0xC0, 0x0C, 0, 1, 0, 1]) == .pointerLoop)
    }

    @Test func refusesTruncatedInput() {
        #expect(Self.code([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]) == .truncated)
        // Counts the bytes cannot hold: refused before anything is reserved.
        #expect(Self.code([0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) == .truncated)
        // A label running past the end, a missing terminator, RDLENGTH past the end.
        #expect(Self.code(Self.header(questions: 1) + [5, 0x61, 0x62, 0, 1, 0]) == .truncated)
        #expect(
            Self.code(Self.header(answers: 1) + Self.label("a") + [0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 9, 1, 2]) == .truncated
        )
        #expect(Self.code(Array(Self.response.dropLast())) == .truncated)
    }

    @Test func refusesBadNamesAndRData() {
        // Label type 01 (extended), a name over 255 bytes, an A record of 3 bytes, an SRV whose target runs
        // past RDLENGTH, a TXT string past RDLENGTH.
        #expect(Self.code(Self.header(questions: 1) + [0x41, 0, 0, 1, 0, 1]) == .badLabelType)
        let long = (0..<5).flatMap { _ in [63] + [UInt8](repeating: 0x61, count: 63) }
        #expect(Self.code(Self.header(questions: 1) + long + [0, 0, 1, 0, 1]) == .badName)
        let owner = Self.label("a") + [0]
        #expect(Self.code(Self.header(answers: 1) + owner + [0, 1, 0, 1, 0, 0, 0, 0, 0, 3, 1, 2, 3]) == .badRData)
        #expect(
            Self.code(
                Self.header(answers: 1) + owner + [0, 0x21, 0, 1, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 1] + Self.label("h")
                    + [0]) == .truncated)
        #expect(Self.code(Self.header(answers: 1) + owner + [0, 0x10, 0, 1, 0, 0, 0, 0, 0, 2, 5, 0x61]) == .badRData)
        #expect(Self.code([UInt8](repeating: 0, count: 9001)) == .tooLong)
    }

    @Test func refusesTrailingBytesInRData() {
        // A PTR whose name ends before RDLENGTH does.
        let bytes =
            Self.header(answers: 1) + Self.label("a") + [0, 0, 0x0C, 0, 1, 0, 0, 0, 0, 0, 4] + Self.label("b") + [0, 0]
        #expect(Self.code(bytes) == .badRData)
    }

    // MARK: - packets

    @Test func splitsLargeMessagesIntoPacketsThatFit() throws {
        let service = try DNSName("_matterc._udp.local")
        let answers = try (0..<200).map { index in
            DNSResourceRecord(
                name: service, data: .ptr(try service.prepending(Self.ascii("instance-\(index)"))), ttl: 4500)
        }
        let query = DNSMessage(questions: [DNSQuestion(name: service, type: .ptr)], answers: answers)
        let packets = query.packets(maxBytes: 512)
        #expect(packets.count > 1)
        for packet in packets { #expect(packet.serialize().count <= 512) }
        #expect(packets.flatMap(\.answers) == answers)
        #expect(packets.flatMap(\.questions) == query.questions)
        // A query's known answers continue in the next packet: TC on every packet but the last (§7.2).
        let truncated = packets.map(\.isTruncated)
        #expect(truncated == Array(repeating: true, count: packets.count - 1) + [false])
        for packet in packets { #expect(try DNSMessage(bytes: packet.serialize()) == packet) }
    }

    @Test func coalescesWholeProbesIntoPacketsThatFit() throws {
        let host = try DNSName("h.local")
        let probes = try (0..<100).map { index in
            let name = try DNSName("instance-\(index)._matterc._udp.local")
            return DNSMessage(
                questions: [DNSQuestion(name: name, type: .any, unicastResponse: true)],
                authorities: [
                    DNSResourceRecord(
                        name: name, data: .srv(priority: 0, weight: 0, port: 5540, target: host), ttl: 120)
                ])
        }
        let announcement = DNSMessage.response(answers: [
            DNSResourceRecord(name: host, data: .a([10, 0, 0, 1]), ttl: 120)
        ])
        let merged = DNSMessage.coalesce(probes + [announcement], maxBytes: 512)
        #expect(merged.count > 2 && merged.count < 50)
        for packet in merged { #expect(packet.serialize().count <= 512) }
        // Order kept, no probe split: each packet's questions and authorities name the same instances.
        #expect(merged.flatMap(\.questions) == probes.flatMap(\.questions))
        for packet in merged { #expect(packet.questions.map(\.name) == packet.authorities.map(\.name)) }
        // A response is never merged into a query.
        #expect(merged.last == announcement)
    }

    @Test func coalescedAnnouncementsCarryARecordTheyShareOnce() throws {
        let host = try DNSName("h.local")
        let type = try DNSName("_matterc._udp.local")
        let address = DNSResourceRecord(name: host, data: .a([10, 0, 0, 1]), ttl: 120, cacheFlush: true)
        let announcements = try (0..<40).map { index in
            DNSMessage.response(answers: [
                DNSResourceRecord(
                    name: type, data: .ptr(try DNSName("instance-\(index)._matterc._udp.local")), ttl: 4500),
                address,
            ])
        }
        let merged = DNSMessage.coalesce(announcements, maxBytes: 512)
        for packet in merged {
            #expect(packet.serialize().count <= 512)
            #expect(packet.answers.filter { $0 == address }.count == 1)
        }
        // Every instance's PTR, in order; fewer packets than with the address repeated.
        #expect(merged.flatMap(\.answers).filter { $0 != address } == announcements.map { $0.answers[0] })
        var repeated = 0
        for message in announcements { repeated += message.serialize().count - DNSMessage.headerBytes }
        #expect(merged.count < (repeated + 511) / 500)
    }
}
