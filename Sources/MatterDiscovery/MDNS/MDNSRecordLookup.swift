/// Records a querier reads by name and type, and the resolution of an instance from them (PTR → SRV, TXT →
/// A/AAAA): the records it received (`MDNSCache`), or those together with its own responder's
/// (`MDNSKnownRecords`).
protocol MDNSRecordLookup {
    /// Live records of one name and type, oldest first.
    func records(named name: DNSName, type: DNSRecordType, now: ContinuousClock.Instant) -> [MDNSCache.Cached]
    /// The live record of one name, type and data, if any (one lookup).
    func record(named name: DNSName, type: DNSRecordType, data: DNSRecordData, now: ContinuousClock.Instant)
        -> MDNSCache.Cached?
    /// Instances found by browsing `browseName` (PTR targets), in the order they were found.
    func instances(of browseName: DNSName, now: ContinuousClock.Instant) -> [DNSName]
}

extension MDNSRecordLookup {
    /// The target of the newest live SRV record of `instance`.
    func target(of instance: DNSName, now: ContinuousClock.Instant) -> DNSName? {
        guard case .srv(_, _, _, let target) = records(named: instance, type: .srv, now: now).last?.record.data else {
            return nil
        }
        return target
    }

    /// The instance resolved from these records, or what is missing.
    func resolve(_ instance: DNSName, serviceType: String, now: ContinuousClock.Instant)
        -> MDNSCache.Resolution
    {
        let srv = records(named: instance, type: .srv, now: now).last
        let txt = records(named: instance, type: .txt, now: now).last
        guard let srv, let txt, case .srv(_, _, let port, let target) = srv.record.data else {
            return .missing(.service(instance))
        }
        var seen = Set<DNSSDAddress>()
        let addresses = (records(named: target, type: .a, now: now) + records(named: target, type: .aaaa, now: now))
            .compactMap { cached -> DNSSDAddress? in
                switch cached.record.data {
                case .a(let bytes), .aaaa(let bytes): DNSSDAddress(bytes: bytes, interfaceIndex: cached.interfaceIndex)
                default: nil
                }
            }
            .filter { seen.insert($0).inserted }
        guard !addresses.isEmpty else { return .missing(.addresses(target)) }
        return .resolved(
            DNSSDResolvedService(
                serviceType: serviceType, instanceName: instance.firstLabel, hostName: target.description, port: port,
                txt: DNSSDTXTRecord(wireStrings: txt.record.data.txtStrings ?? []), addresses: addresses))
    }
}
