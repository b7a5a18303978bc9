/// The records the embedded responder publishes for one service instance (RFC 6763 §4, §7.1, §9, §12) and for
/// its host (RFC 6762 §6), with the TTLs RFC 6762 §10 recommends: 120 s for records naming a host (SRV, A,
/// AAAA), 4,500 s for the others.
package enum MDNSServiceRecords {
    package static let hostTTL: UInt32 = 120
    package static let otherTTL: UInt32 = 4500
    package static let domain: [UInt8] = Array("local".utf8)

    /// `<instance>.<type>.local`.
    package static func instanceName(_ instance: String, serviceType: String) throws(DiscoveryError) -> DNSName {
        let type = try serviceName(serviceType)
        do throws(DNSMessageError) {
            return try type.prepending(Array(instance.utf8))
        } catch {
            throw .invalidRecord("instance '\(instance)' of \(serviceType): \(error.reason)")
        }
    }

    /// `<type>.local`, or `<subtype>._sub.<type>.local` when `subtype` is given.
    package static func serviceName(_ serviceType: String, subtype: String? = nil) throws(DiscoveryError) -> DNSName {
        let text = subtype.map { MatterDNSSD.subtypeServiceName($0, of: serviceType) } ?? serviceType
        do throws(DNSMessageError) {
            return try DNSName(labels: text.split(separator: ".").map { Array($0.utf8) } + [domain])
        } catch {
            throw .invalidRecord("service name '\(text)': \(error.reason)")
        }
    }

    /// PTRs from the type, each subtype and the service enumeration name (shared), SRV and TXT (unique).
    package static func records(
        for record: DNSSDServiceRecord, instanceName: String, hostName: DNSName
    ) throws(DiscoveryError) -> [(record: DNSResourceRecord, unique: Bool)] {
        let instance = try self.instanceName(instanceName, serviceType: record.serviceType)
        let type = try serviceName(record.serviceType)
        let enumeration = try serviceName("_services._dns-sd._udp")
        var out: [(record: DNSResourceRecord, unique: Bool)] = [
            (DNSResourceRecord(name: enumeration, data: .ptr(type), ttl: otherTTL), false),
            (DNSResourceRecord(name: type, data: .ptr(instance), ttl: otherTTL), false),
        ]
        for subtype in record.subtypes {
            out.append(
                (
                    DNSResourceRecord(
                        name: try serviceName(record.serviceType, subtype: subtype), data: .ptr(instance), ttl: otherTTL
                    ), false
                ))
        }
        let txt = try record.txt.wireStrings()
        out.append(
            (
                DNSResourceRecord(
                    name: instance, data: .srv(priority: 0, weight: 0, port: record.port, target: hostName),
                    ttl: hostTTL,
                    cacheFlush: true), true
            ))
        out.append(
            (
                DNSResourceRecord(
                    name: instance, data: .txt(txt.isEmpty ? [[]] : txt), ttl: otherTTL, cacheFlush: true), true
            ))
        return out
    }

    /// A and AAAA records of the host for its addresses.
    package static func hostRecords(hostName: DNSName, addresses: [DNSSDAddress]) -> [DNSResourceRecord] {
        addresses.compactMap { address in
            guard let bytes = address.bytes else { return nil }
            return DNSResourceRecord(
                name: hostName, data: address.family == .ipv4 ? .a(bytes) : .aaaa(bytes), ttl: hostTTL, cacheFlush: true
            )
        }
    }
}
