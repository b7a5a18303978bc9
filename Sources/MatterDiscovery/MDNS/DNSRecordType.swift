/// A DNS RR type (RFC 1035 §3.2.2 and later RFCs), as a number with named constants.
package struct DNSRecordType: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    package static let a = DNSRecordType(rawValue: 1)
    package static let ptr = DNSRecordType(rawValue: 12)
    package static let txt = DNSRecordType(rawValue: 16)
    package static let aaaa = DNSRecordType(rawValue: 28)
    package static let srv = DNSRecordType(rawValue: 33)
    package static let nsec = DNSRecordType(rawValue: 47)
    /// QTYPE "*" (questions only).
    package static let any = DNSRecordType(rawValue: 255)

    package static func < (a: DNSRecordType, b: DNSRecordType) -> Bool { a.rawValue < b.rawValue }

    package var description: String {
        switch self {
        case .a: "A"
        case .ptr: "PTR"
        case .txt: "TXT"
        case .aaaa: "AAAA"
        case .srv: "SRV"
        case .nsec: "NSEC"
        case .any: "ANY"
        default: "TYPE\(rawValue)"
        }
    }
}

/// DNS class IN; in mDNS the top bit of the class field is the QU bit (questions) or the cache-flush bit
/// (records), RFC 6762 §18.12 and §10.2.
package enum DNSClass {
    package static let internet: UInt16 = 1
    package static let topBit: UInt16 = 0x8000
}
