/// What an embedded querier knows: the records it received (`MDNSCache`) and those its own responder publishes
/// (`MDNSRecordIndex`), which it does not receive (the echoes of its own multicast are dropped,
/// `MDNSSentPackets`). So a browse finds the services of its own process, a fleet's device its siblings, without
/// every record of the fleet parsed and cached a second time. Its own records read as received now, with their
/// whole TTL, each address on the interface that has it; where a name has both, its own come last (newest), so
/// its own SRV and TXT win.
struct MDNSKnownRecords: MDNSRecordLookup, Sendable {
    var received: MDNSCache
    var own: MDNSRecordIndex
    /// The interface index of each of its own addresses (4 or 16 bytes).
    var ownInterfaces: [[UInt8]: UInt32]

    func records(named name: DNSName, type: DNSRecordType, now: ContinuousClock.Instant)
        -> [MDNSCache.Cached]
    {
        received.records(named: name, type: type, now: now)
            + own.records(named: name, type: type).map { cached($0.record, now: now) }
    }

    func record(named name: DNSName, type: DNSRecordType, data: DNSRecordData, now: ContinuousClock.Instant)
        -> MDNSCache.Cached?
    {
        if let entry = own.entry(named: name, type: type, data: data) { return cached(entry.record, now: now) }
        return received.record(named: name, type: type, data: data, now: now)
    }

    /// Its own instances first, then the received ones.
    func instances(of browseName: DNSName, now: ContinuousClock.Instant) -> [DNSName] {
        let mine = own.records(named: browseName, type: .ptr).compactMap { entry -> DNSName? in
            if case .ptr(let instance) = entry.record.data { return instance }
            return nil
        }
        var seen = Set(mine)
        return mine + received.instances(of: browseName, now: now).filter { seen.insert($0).inserted }
    }

    private func cached(_ record: DNSResourceRecord, now: ContinuousClock.Instant) -> MDNSCache.Cached {
        let interfaceIndex: UInt32 =
            switch record.data {
            case .a(let bytes), .aaaa(let bytes): ownInterfaces[bytes] ?? 0
            default: 0
            }
        return MDNSCache.Cached(
            record: record, received: now, expires: now + .seconds(Int64(record.ttl)), interfaceIndex: interfaceIndex)
    }
}
