/// One resource record for `avahi_entry_group_add_record`: owner name in Avahi's escaped text form,
/// type, TTL, whether the RRset is unique (SRV, TXT) or shared (PTR), and the RDATA in wire form.
struct AvahiRawRecord: Sendable, Hashable {
    static let typePTR: UInt16 = 12
    static let typeTXT: UInt16 = 16
    static let typeSRV: UInt16 = 33
    /// Avahi's own TTLs for a service's records (`AVAHI_DEFAULT_TTL`, `AVAHI_DEFAULT_TTL_HOST_NAME`).
    static let defaultTTL: UInt32 = 4500
    static let hostNameTTL: UInt32 = 120

    let name: String
    let type: UInt16
    let ttl: UInt32
    let unique: Bool
    let rdata: [UInt8]

    /// The records Avahi's `add_service` would make for `record` named `instanceName`, but for the
    /// service enumeration PTR (``serviceEnumeration(serviceType:domain:)``, one per service type
    /// for all of a client's publications): PTR from the service type and from each subtype; SRV to
    /// `hostName` (the daemon's FQDN, whose A/AAAA it publishes itself) and TXT. `serviceName` is
    /// the instance's full name in escaped text form (`avahi_service_name_join`).
    static func serviceRecords(
        _ record: DNSSDServiceRecord, instanceName: String, serviceName: String, hostName: String, domain: String,
        txt: [[UInt8]]
    ) throws(DiscoveryError) -> [AvahiRawRecord] {
        let typeName = "\(record.serviceType).\(domain)"
        let instance = try encodeName([Array(instanceName.utf8)] + labels(of: typeName))
        let target = try encodeName(labels(of: hostName))
        var out: [AvahiRawRecord] = []
        out.append(AvahiRawRecord(name: typeName, type: typePTR, ttl: defaultTTL, unique: false, rdata: instance))
        for subtype in record.subtypes {
            let name = "\(MatterDNSSD.subtypeServiceName(subtype, of: record.serviceType)).\(domain)"
            out.append(AvahiRawRecord(name: name, type: typePTR, ttl: defaultTTL, unique: false, rdata: instance))
        }
        out.append(srv(serviceName: serviceName, port: record.port, target: target))
        out.append(self.txt(serviceName: serviceName, txt))
        return out
    }

    /// `_services._dns-sd._udp` PTR to the service type (RFC 6763 §9). The same record for every
    /// instance of the type, so it is published once per type: a fleet of 1,000 publishing it 1,000
    /// times cost the daemon about a third of its CPU (its lists compare records one by one).
    static func serviceEnumeration(serviceType: String, domain: String) throws(DiscoveryError) -> AvahiRawRecord {
        AvahiRawRecord(
            name: "_services._dns-sd._udp.\(domain)", type: typePTR, ttl: defaultTTL, unique: false,
            rdata: try encodeName(labels(of: "\(serviceType).\(domain)")))
    }

    /// SRV with priority and weight 0.
    static func srv(serviceName: String, port: UInt16, target: [UInt8]) -> AvahiRawRecord {
        let rdata = [0, 0, 0, 0, UInt8(port >> 8), UInt8(port & 0xFF)] + target
        return AvahiRawRecord(name: serviceName, type: typeSRV, ttl: hostNameTTL, unique: true, rdata: rdata)
    }

    /// TXT: each string with its length byte; an empty TXT is one empty string (RFC 6763 §6.1).
    static func txt(serviceName: String, _ strings: [[UInt8]]) -> AvahiRawRecord {
        var rdata: [UInt8] = []
        for string in strings {
            rdata.append(UInt8(truncatingIfNeeded: string.count))
            rdata += string
        }
        if rdata.isEmpty { rdata = [0] }
        return AvahiRawRecord(name: serviceName, type: typeTXT, ttl: defaultTTL, unique: true, rdata: rdata)
    }

    /// The labels of a dotted name without escapes (service types, `local`, host names).
    static func labels(of name: String) -> [[UInt8]] {
        name.split(separator: ".").map { Array($0.utf8) }
    }

    /// A domain name in wire form (uncompressed): each label with its length byte, then a zero byte.
    static func encodeName(_ labels: [[UInt8]]) throws(DiscoveryError) -> [UInt8] {
        var out: [UInt8] = []
        for label in labels {
            guard !label.isEmpty, label.count <= 63 else {
                throw .invalidRecord("DNS label '\(String(decoding: label, as: UTF8.self))' must be 1 to 63 bytes")
            }
            out.append(UInt8(label.count))
            out += label
        }
        out.append(0)
        guard out.count <= 255 else { throw .invalidRecord("DNS name longer than 255 bytes") }
        return out
    }
}
