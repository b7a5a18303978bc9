import Dispatch

extension EmbeddedMDNS {
    struct Publication {
        var record: DNSSDServiceRecord
        var currentName: String
        var name: DNSName
        var records: [(record: DNSResourceRecord, unique: Bool)]
        var probing = true
        var probesSent = 0
        /// Bumped whenever probing restarts, so the timers of an earlier round do nothing.
        var generation: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Result<String, DiscoveryError>, Never>] = [:]

        var uniqueRecords: [DNSResourceRecord] { records.filter(\.unique).map(\.record) }
    }

    package func publish(_ record: DNSSDServiceRecord) throws(DiscoveryError) -> DNSSDPublicationID {
        guard !stopped else { throw .stopped }
        try record.validate()
        let id = newID()
        var name = record.instanceName
        while publicationsByName[try MDNSServiceRecords.instanceName(name, serviceType: record.serviceType)] != nil {
            name = MatterInstanceName.next(after: name, renaming: record.renaming, using: &random)
        }
        let publication = try makePublication(record, name: name)
        publications[id] = publication
        publicationsByName[publication.name] = id
        // §8.1: the first probe after a random 0–250 ms, so hosts starting together do not probe in step.
        startProbing(id, after: .milliseconds(Int.random(in: 0...250, using: &random)))
        return DNSSDPublicationID(rawValue: id)
    }

    func makePublication(_ record: DNSSDServiceRecord, name: String) throws(DiscoveryError) -> Publication {
        Publication(
            record: record, currentName: name,
            name: try MDNSServiceRecords.instanceName(name, serviceType: record.serviceType),
            records: try MDNSServiceRecords.records(for: record, instanceName: name, hostName: host))
    }

    package func update(_ publication: DNSSDPublicationID, to record: DNSSDServiceRecord) throws(DiscoveryError) {
        guard !stopped else { throw .stopped }
        let id = publication.rawValue
        guard let old = publications[id] else { throw .unknownPublication }
        try record.validate()
        if record.instanceName == old.record.instanceName, record.serviceType == old.record.serviceType {
            // Same name: new records in place; records that left say goodbye, the rest are announced again.
            var updated = try makePublication(record, name: old.currentName)
            updated.probing = old.probing
            updated.probesSent = old.probesSent
            updated.generation = old.generation
            updated.waiters = old.waiters
            publications[id] = updated
            guard !old.probing else { return }
            let gone = index.remove(owner: id)
            for (record, unique) in updated.records { index.insert(record, unique: unique, owner: id) }
            indexChanged(gone.map(\.record) + updated.records.map(\.record))
            sendGoodbyes(gone.map(\.record).filter { record in !updated.records.contains { $0.record == record } })
            announce(id, generation: updated.generation, round: 0)
        } else {
            let waiters = old.waiters
            publications[id]?.waiters = [:]
            withdrawNow(id, error: nil)
            var name = record.instanceName
            while publicationsByName[try MDNSServiceRecords.instanceName(name, serviceType: record.serviceType)] != nil
            {
                name = MatterInstanceName.next(after: name, renaming: record.renaming, using: &random)
            }
            var publication = try makePublication(record, name: name)
            publication.waiters = waiters
            publications[id] = publication
            publicationsByName[publication.name] = id
            startProbing(id, after: .zero)
        }
    }

    package func withdraw(_ publication: DNSSDPublicationID) {
        withdrawNow(publication.rawValue, error: .unknownPublication)
    }

    /// Removes a publication, says goodbye for its records, and fails its waiters with `error`.
    func withdrawNow(_ id: UInt64, error: DiscoveryError?) {
        guard let publication = publications.removeValue(forKey: id) else { return }
        if publicationsByName[publication.name] == id { publicationsByName[publication.name] = nil }
        let gone = index.remove(owner: id).map(\.record)
        indexChanged(gone)
        sendGoodbyes(gone)
        if let error { for waiter in publication.waiters.values { waiter.resume(returning: .failure(error)) } }
    }

    package func instanceName(of publication: DNSSDPublicationID) -> String? {
        publications[publication.rawValue]?.currentName
    }

    /// True while a publication's current name is being probed (not yet answerable).
    package func isProbing(_ publication: DNSSDPublicationID) -> Bool {
        publications[publication.rawValue]?.probing ?? false
    }

    package func waitUntilEstablished(_ publication: DNSSDPublicationID, timeout: Duration) async throws(DiscoveryError)
        -> String
    {
        let id = publication.rawValue
        guard let p = publications[id] else { throw .unknownPublication }
        guard p.probing else { return p.currentName }
        let waiter = newID()
        let result = await withCheckedContinuation { continuation in
            publications[id]?.waiters[waiter] = continuation
            schedule(after: timeout) { me in
                guard let c = me.publications[id]?.waiters.removeValue(forKey: waiter) else { return }
                c.resume(returning: .failure(.timedOut("\(publication) not established within \(timeout)")))
            }
        }
        return try result.get()
    }

    // MARK: - probing and announcing

    func startProbing(_ id: UInt64, after delay: Duration) {
        guard var publication = publications[id] else { return }
        guard publication.record.probes else {
            // An identity assigned elsewhere (an operational instance): announced at once (`probes`).
            publication.generation += 1
            publications[id] = publication
            establish(id)
            return
        }
        publication.generation += 1
        publication.probing = true
        publication.probesSent = 0
        publications[id] = publication
        let generation = publication.generation
        schedule(after: delay) { $0.probe(id, generation: generation) }
    }

    /// Sends the next probe (question ANY for the name, the proposed records in the authority section; the
    /// first probe asks for unicast answers, §8.1), or after the last one establishes the name.
    func probe(_ id: UInt64, generation: UInt64) {
        guard var publication = publications[id], publication.generation == generation, publication.probing else {
            return
        }
        guard publication.probesSent < EmbeddedMDNS.probeCount else {
            establish(id)
            return
        }
        let question = DNSQuestion(name: publication.name, type: .any, unicastResponse: publication.probesSent == 0)
        multicastSoon(DNSMessage(questions: [question], authorities: publication.uniqueRecords))
        publication.probesSent += 1
        publications[id] = publication
        schedule(after: EmbeddedMDNS.probeInterval) { $0.probe(id, generation: generation) }
    }

    func establish(_ id: UInt64) {
        guard var publication = publications[id] else { return }
        publication.probing = false
        let waiters = publication.waiters
        publication.waiters = [:]
        publications[id] = publication
        for (record, unique) in publication.records { index.insert(record, unique: unique, owner: id) }
        indexChanged(publication.records.map(\.record))
        note("\(publication.name): established")
        announce(id, generation: publication.generation, round: 0)
        for waiter in waiters.values { waiter.resume(returning: .success(publication.currentName)) }
    }

    /// §8.3: every record of the publication, with the host's addresses, twice, one second apart.
    func announce(_ id: UInt64, generation: UInt64, round: Int) {
        guard let publication = publications[id], publication.generation == generation, !publication.probing else {
            return
        }
        let records = index.records(of: id).map(\.record)
        let addresses = index.records(named: host, type: .a) + index.records(named: host, type: .aaaa)
        multicastSoon(.response(answers: records + addresses.map(\.record)))
        if round == 0 { schedule(after: .seconds(1)) { $0.announce(id, generation: generation, round: 1) } }
    }

    /// Acts on what `message` says about publication `id`'s name: rename on a conflict, probe again a second
    /// later after losing a simultaneous-probe tie-break.
    func checkConflict(_ id: UInt64, _ message: DNSMessage) {
        guard let publication = publications[id] else { return }
        switch MDNSConflict.check(
            message, name: publication.name, ours: publication.uniqueRecords, probing: publication.probing)
        {
        case .none: return
        case .deferToProber:
            note("\(publication.name): lost the simultaneous-probe tie-break; probing again in 1 s")
            startProbing(id, after: .seconds(1))
        case .conflict:
            note("\(publication.name): conflict (\(publication.probing ? "probing" : "established")); renaming")
            rename(id)
        }
    }

    /// §8.1, §9: stop using the name (goodbyes if it was announced), take the next one and probe it.
    func rename(_ id: UInt64) {
        guard let old = publications[id] else { return }
        if publicationsByName[old.name] == id { publicationsByName[old.name] = nil }
        let gone = index.remove(owner: id).map(\.record)
        indexChanged(gone)
        sendGoodbyes(gone)
        var name = old.currentName
        var candidate: Publication?
        for _ in 0..<100 where candidate == nil {
            name = MatterInstanceName.next(after: name, renaming: old.record.renaming, using: &random)
            if let next = try? makePublication(old.record, name: name), publicationsByName[next.name] == nil {
                candidate = next
            }
        }
        guard var publication = candidate else {
            // No usable name left (a numbered name grown past 63 bytes): give the publication up.
            publications[id] = nil
            for waiter in old.waiters.values {
                waiter.resume(returning: .failure(.invalidRecord("no free instance name after '\(old.currentName)'")))
            }
            return
        }
        publication.generation = old.generation
        publication.waiters = old.waiters
        publications[id] = publication
        publicationsByName[publication.name] = id
        startProbing(id, after: .zero)
    }
}
