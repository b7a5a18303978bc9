/// The RDATA of a resource record, decoded for the types mDNS/DNS-SD uses and kept raw for the others.
///
/// Wire schemas (RFC 1035 §3.3, RFC 2782, RFC 3596, RFC 4034 §4.1, RFC 6762 §6.1):
/// - A: 4-byte IPv4 address; AAAA: 16-byte IPv6 address
/// - PTR: a domain name
/// - SRV: priority u16, weight u16, port u16, target name
/// - TXT: one or more character strings, each a length byte and that many bytes
/// - NSEC: next domain name, then type bitmap blocks (window u8, length u8 1...32, bitmap)
package enum DNSRecordData: Hashable, Sendable {
    case a([UInt8])
    case aaaa([UInt8])
    case ptr(DNSName)
    case srv(priority: UInt16, weight: UInt16, port: UInt16, target: DNSName)
    case txt([[UInt8]])
    case nsec(next: DNSName, types: [DNSRecordType])
    case other(DNSRecordType, [UInt8])

    package var type: DNSRecordType {
        switch self {
        case .a: .a
        case .aaaa: .aaaa
        case .ptr: .ptr
        case .srv: .srv
        case .txt: .txt
        case .nsec: .nsec
        case .other(let type, _): type
        }
    }

    /// The RDATA in uncompressed wire form: what RFC 6762 §8.2 compares in a probe tie-break and what
    /// makes two records "the same" for known-answer suppression and duplicate detection.
    package var canonicalBytes: [UInt8] {
        var writer = DNSWriter(compressing: false)
        writer.writeRData(self)
        return writer.bytes
    }

    /// The TXT strings of a TXT record with the single empty string of an empty TXT removed.
    package var txtStrings: [[UInt8]]? {
        guard case .txt(let strings) = self else { return nil }
        return strings.filter { !$0.isEmpty }
    }

    static func decode(type: DNSRecordType, from reader: inout DNSReader, length: Int) throws(DNSMessageError)
        -> DNSRecordData
    {
        let start = reader.offset
        let end = start + length
        guard end <= reader.bytes.count else {
            throw DNSMessageError(.truncated, at: start, "RDATA of \(length) bytes runs past the message")
        }
        let data: DNSRecordData
        switch type {
        case .a, .aaaa:
            let size = type == .a ? 4 : 16
            guard length == size else {
                throw DNSMessageError(.badRData, at: start, "\(type) RDATA of \(length) bytes (\(size) expected)")
            }
            let bytes = try reader.readBytes(size)
            data = type == .a ? .a(bytes) : .aaaa(bytes)
        case .ptr:
            data = .ptr(try reader.readName(limit: end))
        case .srv:
            guard length >= 7 else {
                throw DNSMessageError(.badRData, at: start, "SRV RDATA of \(length) bytes (at least 7 expected)")
            }
            let priority = try reader.readUInt16()
            let weight = try reader.readUInt16()
            let port = try reader.readUInt16()
            data = .srv(priority: priority, weight: weight, port: port, target: try reader.readName(limit: end))
        case .txt:
            var strings: [[UInt8]] = []
            while reader.offset < end {
                let count = Int(try reader.readUInt8())
                guard reader.offset + count <= end else {
                    throw DNSMessageError(.badRData, at: reader.offset, "TXT string of \(count) bytes runs past RDATA")
                }
                strings.append(try reader.readBytes(count))
            }
            data = .txt(strings)
        case .nsec:
            let next = try reader.readName(limit: end)
            var types: [DNSRecordType] = []
            var lastWindow = -1
            while reader.offset < end {
                let window = Int(try reader.readUInt8())
                let count = Int(try reader.readUInt8())
                guard window > lastWindow, (1...32).contains(count), reader.offset + count <= end else {
                    throw DNSMessageError(.badRData, at: reader.offset, "NSEC bitmap block out of order or size")
                }
                lastWindow = window
                let bitmap = try reader.readBytes(count)
                for (index, byte) in bitmap.enumerated() {
                    for bit in 0..<8 where byte & (0x80 >> bit) != 0 {
                        types.append(DNSRecordType(rawValue: UInt16(window * 256 + index * 8 + bit)))
                    }
                }
            }
            data = .nsec(next: next, types: types)
        default:
            data = .other(type, try reader.readBytes(length))
        }
        guard reader.offset == end else {
            throw DNSMessageError(.badRData, at: reader.offset, "\(type) RDATA ends \(end - reader.offset) bytes early")
        }
        return data
    }
}
