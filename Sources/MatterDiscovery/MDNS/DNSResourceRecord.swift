/// One resource record. Wire schema (RFC 1035 §4.1.3): NAME, TYPE u16, CLASS u16 (in mDNS the top bit
/// is the cache-flush bit, RFC 6762 §10.2), TTL u32, RDLENGTH u16, RDATA.
package struct DNSResourceRecord: Hashable, Sendable, CustomStringConvertible {
    package var name: DNSName
    package var data: DNSRecordData
    package var ttl: UInt32
    /// The class without the cache-flush bit (1, IN, for everything mDNS publishes).
    package var recordClass: UInt16
    /// RFC 6762 §10.2: set on records of a unique RRset, telling caches to drop older data.
    package var cacheFlush: Bool

    package init(
        name: DNSName, data: DNSRecordData, ttl: UInt32, cacheFlush: Bool = false,
        recordClass: UInt16 = DNSClass.internet
    ) {
        self.name = name
        self.data = data
        self.ttl = ttl
        self.recordClass = recordClass
        self.cacheFlush = cacheFlush
    }

    package var type: DNSRecordType { data.type }

    /// Same name, type, class and RDATA (TTL and cache-flush bit aside): RFC 6762's "same record".
    package func isSameRecord(as other: DNSResourceRecord) -> Bool {
        name == other.name && recordClass == other.recordClass && data == other.data
    }

    package var description: String { "\(name) \(type) ttl=\(ttl)\(cacheFlush ? " flush" : "") \(data)" }
}

/// One question. Wire schema (RFC 1035 §4.1.2): QNAME, QTYPE u16, QCLASS u16 whose top bit in mDNS asks
/// for a unicast response (QU, RFC 6762 §5.4).
package struct DNSQuestion: Hashable, Sendable, CustomStringConvertible {
    package var name: DNSName
    package var type: DNSRecordType
    package var questionClass: UInt16
    package var unicastResponse: Bool

    package init(
        name: DNSName, type: DNSRecordType, unicastResponse: Bool = false, questionClass: UInt16 = DNSClass.internet
    ) {
        self.name = name
        self.type = type
        self.questionClass = questionClass
        self.unicastResponse = unicastResponse
    }

    /// True when `record` answers this question (name, type or ANY, class or ANY).
    package func isAnswered(by record: DNSResourceRecord) -> Bool {
        (type == .any || type == record.type) && (questionClass == 255 || questionClass == record.recordClass)
            && name == record.name
    }

    package var description: String { "\(name) \(type)\(unicastResponse ? " QU" : "")" }
}
