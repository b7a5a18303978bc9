/// A DNS message as mDNS uses it (RFC 1035 §4.1, RFC 6762 §18).
///
/// Wire schema: header (ID u16, flags u16: QR, OPCODE 4 bits, AA, TC, RD, RA, Z, AD, CD, RCODE 4 bits;
/// QDCOUNT, ANCOUNT, NSCOUNT, ARCOUNT u16), then the questions, answers, authority and additional records.
/// Decoding is a throwing initializer that checks every length against the bytes present and refuses
/// compression pointers that do not point backwards; `serialize()` mirrors it and compresses names.
package struct DNSMessage: Hashable, Sendable {
    /// Largest message mDNS allows (RFC 6762 §17): decoding refuses anything larger.
    package static let maxBytes = 9000
    package static let headerBytes = 12

    package enum Flags {
        package static let response: UInt16 = 0x8000
        package static let authoritative: UInt16 = 0x0400
        package static let truncated: UInt16 = 0x0200
        package static let opcodeMask: UInt16 = 0x7800
        package static let rcodeMask: UInt16 = 0x000F
    }

    package var id: UInt16
    package var flags: UInt16
    package var questions: [DNSQuestion]
    package var answers: [DNSResourceRecord]
    package var authorities: [DNSResourceRecord]
    package var additionals: [DNSResourceRecord]

    package init(
        id: UInt16 = 0, flags: UInt16 = 0, questions: [DNSQuestion] = [], answers: [DNSResourceRecord] = [],
        authorities: [DNSResourceRecord] = [], additionals: [DNSResourceRecord] = []
    ) {
        self.id = id
        self.flags = flags
        self.questions = questions
        self.answers = answers
        self.authorities = authorities
        self.additionals = additionals
    }

    /// An mDNS response: QR and AA set (RFC 6762 §18.2, §18.4).
    package static func response(
        id: UInt16 = 0, questions: [DNSQuestion] = [], answers: [DNSResourceRecord],
        additionals: [DNSResourceRecord] = []
    ) -> DNSMessage {
        DNSMessage(
            id: id, flags: Flags.response | Flags.authoritative, questions: questions, answers: answers,
            additionals: additionals)
    }

    package var isResponse: Bool { flags & Flags.response != 0 }

    /// One line for traces: kind, then the questions and the records of each section.
    package var summary: String {
        func list(_ tag: String, _ items: [some CustomStringConvertible]) -> String {
            items.isEmpty ? "" : " \(tag)[\(items.map(\.description).joined(separator: "; "))]"
        }
        return (isResponse ? "response" : "query") + (isTruncated ? " TC" : "") + list("Q", questions)
            + list("AN", answers) + list("NS", authorities) + list("AR", additionals)
    }
    package var isTruncated: Bool { flags & Flags.truncated != 0 }
    package var opcode: UInt8 { UInt8((flags & Flags.opcodeMask) >> 11) }
    package var rcode: UInt8 { UInt8(flags & Flags.rcodeMask) }

    /// Decodes one message. Fails with `.tooLong` above 9,000 bytes, `.truncated` when a count or length
    /// announces more than is there, `.pointerLoop`, `.badLabelType`, `.badName` or `.badRData`.
    package init(bytes: [UInt8]) throws(DNSMessageError) {
        guard bytes.count <= DNSMessage.maxBytes else {
            throw DNSMessageError(.tooLong, at: 0, "message of \(bytes.count) bytes (9000 allowed)")
        }
        var reader = DNSReader(bytes)
        id = try reader.readUInt16()
        flags = try reader.readUInt16()
        let questionCount = Int(try reader.readUInt16())
        let answerCount = Int(try reader.readUInt16())
        let authorityCount = Int(try reader.readUInt16())
        let additionalCount = Int(try reader.readUInt16())
        // A question takes at least 5 bytes and a record 11: refuse counts the bytes cannot hold before
        // reserving anything.
        let least = questionCount * 5 + (answerCount + authorityCount + additionalCount) * 11
        guard least <= reader.remaining else {
            throw DNSMessageError(
                .truncated, at: reader.offset, "counts need at least \(least) bytes, \(reader.remaining) left")
        }
        questions = []
        questions.reserveCapacity(questionCount)
        for _ in 0..<questionCount {
            let name = try reader.readName()
            let type = DNSRecordType(rawValue: try reader.readUInt16())
            let rawClass = try reader.readUInt16()
            questions.append(
                DNSQuestion(
                    name: name, type: type, unicastResponse: rawClass & DNSClass.topBit != 0,
                    questionClass: rawClass & 0x7FFF))
        }
        answers = try DNSMessage.readRecords(answerCount, from: &reader)
        authorities = try DNSMessage.readRecords(authorityCount, from: &reader)
        additionals = try DNSMessage.readRecords(additionalCount, from: &reader)
    }

    private static func readRecords(_ count: Int, from reader: inout DNSReader) throws(DNSMessageError)
        -> [DNSResourceRecord]
    {
        var records: [DNSResourceRecord] = []
        records.reserveCapacity(count)
        for _ in 0..<count {
            let name = try reader.readName()
            let type = DNSRecordType(rawValue: try reader.readUInt16())
            let rawClass = try reader.readUInt16()
            let ttl = try reader.readUInt32()
            let length = Int(try reader.readUInt16())
            let data = try DNSRecordData.decode(type: type, from: &reader, length: length)
            records.append(
                DNSResourceRecord(
                    name: name, data: data, ttl: ttl, cacheFlush: rawClass & DNSClass.topBit != 0,
                    recordClass: rawClass & 0x7FFF))
        }
        return records
    }

    /// The message's bytes, names compressed.
    package func serialize() -> [UInt8] {
        var writer = DNSWriter()
        writer.writeUInt16(id)
        writer.writeUInt16(flags)
        writer.writeUInt16(UInt16(truncatingIfNeeded: questions.count))
        writer.writeUInt16(UInt16(truncatingIfNeeded: answers.count))
        writer.writeUInt16(UInt16(truncatingIfNeeded: authorities.count))
        writer.writeUInt16(UInt16(truncatingIfNeeded: additionals.count))
        for question in questions { writer.writeQuestion(question) }
        for record in answers { writer.writeRecord(record) }
        for record in authorities { writer.writeRecord(record) }
        for record in additionals { writer.writeRecord(record) }
        return writer.bytes
    }

    /// Splits into messages of at most `maxBytes` each: questions, answers, authorities and additionals in
    /// order, as many as fit per packet. Every packet but the last of a query with known answers that did not
    /// fit carries TC (RFC 6762 §7.2). Additional records that do not fit are dropped rather than split
    /// (they are optional, §12). A single record too large for `maxBytes` goes alone in its own packet.
    package func packets(maxBytes: Int) -> [DNSMessage] {
        var out: [DNSMessage] = []
        var current = DNSMessage(id: id, flags: flags)
        var writer = DNSWriter()
        for _ in 0..<6 { writer.writeUInt16(0) }  // the header's size
        func isEmpty(_ message: DNSMessage) -> Bool {
            message.questions.isEmpty && message.answers.isEmpty && message.authorities.isEmpty
        }
        func flush() {
            out.append(current)
            current = DNSMessage(id: id, flags: flags)
            writer = DNSWriter()
            for _ in 0..<6 { writer.writeUInt16(0) }
        }
        func fits(_ write: (inout DNSWriter) -> Void) -> Bool {
            let mark = writer.checkpoint()
            write(&writer)
            if writer.count <= maxBytes { return true }
            writer.rollback(to: mark)
            return false
        }
        // Writes one entry where it fits: in this packet, else in a fresh one; an entry too large even for an
        // empty packet is written alone (the next entry then starts a new packet).
        func place(_ write: (inout DNSWriter) -> Void) {
            if fits(write) { return }
            if !isEmpty(current) {
                flush()
                if fits(write) { return }
            }
            write(&writer)
        }
        for question in questions {
            place { $0.writeQuestion(question) }
            current.questions.append(question)
        }
        for record in answers {
            place { $0.writeRecord(record) }
            current.answers.append(record)
        }
        for record in authorities {
            place { $0.writeRecord(record) }
            current.authorities.append(record)
        }
        for record in additionals where fits({ $0.writeRecord(record) }) {
            current.additionals.append(record)
        }
        out.append(current)
        if !isResponse, out.count > 1 {
            for index in out.indices.dropLast() { out[index].flags |= Flags.truncated }
        }
        return out
    }

    /// Merges whole messages of the same flags into as few as fit in `maxBytes` each, in order, never splitting
    /// one: a probe's question stays with its authority records (the §8.2 tie-break reads them together), an
    /// announcement's records stay together. Each merged message's size is bounded by the sum of its parts'
    /// (compression only shrinks it). A message larger than `maxBytes` alone is passed on as it is.
    /// An answer already in the merged message is not repeated: a fleet's announcements each carry the host's
    /// address records and the service enumeration PTR, which would otherwise fill a quarter of every packet.
    package static func coalesce(_ messages: [DNSMessage], maxBytes: Int) -> [DNSMessage] {
        var out: [DNSMessage] = []
        var current: DNSMessage?
        var answered = Set<DNSResourceRecord>()
        var size = headerBytes
        for message in messages {
            if var merged = current, merged.flags == message.flags {
                var part = message
                part.answers.removeAll { answered.contains($0) }
                if part.questions.isEmpty, part.answers.isEmpty, part.authorities.isEmpty, part.additionals.isEmpty {
                    continue
                }
                let bytes = part.serialize().count - headerBytes
                if size + bytes <= maxBytes {
                    merged.questions += part.questions
                    merged.answers += part.answers
                    merged.authorities += part.authorities
                    merged.additionals += part.additionals
                    answered.formUnion(part.answers)
                    current = merged
                    size += bytes
                    continue
                }
            }
            if let merged = current { out.append(merged) }
            current = message
            answered = Set(message.answers)
            size = message.serialize().count
        }
        if let merged = current { out.append(merged) }
        return out
    }
}
