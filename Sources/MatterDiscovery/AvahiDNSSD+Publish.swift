import Dispatch
import MatterCore

/// Publishing: entry groups per service record, conflict renames, the enumeration PTRs and the
/// sentinel record.
extension AvahiDNSSD {
    package func publish(_ record: DNSSDServiceRecord) throws(DiscoveryError) -> DNSSDPublicationID {
        guard !stopped else { throw .stopped }
        try record.validate()
        let id = newID()
        publications[id] = Publication(record: record, currentName: record.instanceName)
        if clientState == .running { register(id) }
        return DNSSDPublicationID(rawValue: id)
    }

    package func update(_ publication: DNSSDPublicationID, to record: DNSSDServiceRecord) throws(DiscoveryError) {
        guard !stopped else { throw .stopped }
        try record.validate()
        let id = publication.rawValue
        guard var p = publications[id] else { throw .unknownPublication }
        let old = p.record
        p.record = record
        if record.instanceName != old.instanceName || record.serviceType != old.serviceType {
            p.currentName = record.instanceName
        }
        publications[id] = p
        guard clientState == .running, let connection else { return }
        guard let token = p.groupToken else {
            // Not registered (an earlier attempt failed): try again with the new record.
            publications[id]?.state = .pending
            return register(id)
        }
        let txtOnly =
            old.serviceType == record.serviceType && old.instanceName == record.instanceName
            && old.port == record.port && old.subtypes == record.subtypes
        if txtOnly, p.state == .established || p.state == .registering, let txt = try? record.txt.wireStrings() {
            switch publishing {
            case .probedServices:
                if connection.updateTXT(token, record: record, name: p.currentName, txt: txt) == 0 { return }
            case .rawRecords:
                if let domain = connection.domainName,
                    let name = AvahiConnection.serviceName(
                        instance: p.currentName, type: record.serviceType, domain: domain),
                    connection.updateRecord(token, AvahiRawRecord.txt(serviceName: name, txt)) == 0
                {
                    return
                }
            }
        }
        switch publishing {
        case .probedServices:
            connection.reset(token)
            addEntries(id)
        case .rawRecords:
            // Subtypes or SRV changed: goodbyes for the old records, the new ones announced at once.
            dropGroup(id)
            register(id)
        }
    }

    package func withdraw(_ publication: DNSSDPublicationID) {
        let id = publication.rawValue
        guard publications[id] != nil else { return }
        let serviceType = publications[id]?.record.serviceType
        dropGroup(id)
        failWaiters(id, .unknownPublication)
        publications[id] = nil
        if let serviceType, !publications.values.contains(where: { $0.record.serviceType == serviceType }),
            let token = enumerationGroups.removeValue(forKey: serviceType)
        {
            connection?.free(token)
        }
    }

    /// Frees every service-enumeration group (goodbyes), e.g. while the daemon renames its host.
    func dropEnumerations() {
        for token in enumerationGroups.values { connection?.free(token) }
        enumerationGroups.removeAll()
    }

    /// Publishes the service-enumeration PTR of `serviceType` unless it is already up.
    private func ensureEnumeration(_ connection: AvahiConnection, serviceType: String, domain: String)
        throws(DiscoveryError)
    {
        guard enumerationGroups[serviceType] == nil else { return }
        let record = try AvahiRawRecord.serviceEnumeration(serviceType: serviceType, domain: domain)
        let token = try connection.newEntryGroup()
        let code = connection.addRecords(token, [record], probe: false)
        guard code == 0 else {
            connection.free(token)
            throw AvahiConnection.error(code, operation: "publish of the \(serviceType) service enumeration")
        }
        enumerationGroups[serviceType] = token
    }

    package func instanceName(of publication: DNSSDPublicationID) -> String? {
        publications[publication.rawValue]?.currentName
    }

    /// Raw records: whether the background probe of the current name has finished without a
    /// conflict (the records were answerable before that). For tests and measurements.
    package func isConflictChecked(_ publication: DNSSDPublicationID) -> Bool {
        publications[publication.rawValue]?.conflictChecked ?? false
    }

    package func waitUntilEstablished(_ publication: DNSSDPublicationID, timeout: Duration) async throws(DiscoveryError)
        -> String
    {
        let id = publication.rawValue
        guard let p = publications[id] else { throw .unknownPublication }
        switch p.state {
        case .established: return p.currentName
        case .failed(let error): throw error
        case .pending, .registering: break
        }
        let waiter = newID()
        let result = await withCheckedContinuation { continuation in
            publications[id]?.waiters[waiter] = continuation
            executor.queue.asyncAfter(deadline: .now() + timeout.dispatchInterval) { [weak self] in
                guard let self else { return }
                self.assumeIsolated { me in
                    guard let c = me.publications[id]?.waiters.removeValue(forKey: waiter) else { return }
                    c.resume(returning: .failure(.timedOut("\(publication) not established within \(timeout)")))
                }
            }
        }
        return try result.get()
    }

    func failWaiters(_ id: UInt64, _ error: DiscoveryError) {
        guard let waiters = publications[id]?.waiters else { return }
        publications[id]?.waiters.removeAll()
        for c in waiters.values { c.resume(returning: .failure(error)) }
    }

    func dropGroup(_ id: UInt64) {
        publications[id]?.conflictChecked = false
        if let token = publications[id]?.sentinelToken {
            connection?.free(token)
            groupOwners[token] = nil
            publications[id]?.sentinelToken = nil
        }
        guard let token = publications[id]?.groupToken else { return }
        connection?.free(token)
        groupOwners[token] = nil
        publications[id]?.groupToken = nil
        publications[id]?.state = .pending
    }

    /// Creates the publication's entry group (and, for raw records, its sentinel group) and adds its
    /// records.
    func register(_ id: UInt64) {
        guard let connection, publications[id] != nil else { return }
        do {
            let token = try connection.newEntryGroup()
            groupOwners[token] = id
            publications[id]?.groupToken = token
            if publishing == .rawRecords {
                do {
                    let sentinel = try connection.newEntryGroup()
                    groupOwners[sentinel] = id
                    publications[id]?.sentinelToken = sentinel
                } catch {
                    // E.g. the daemon's objects-per-client-max (1024 by default): publish anyway.
                    if !sentinelWarned { logger.warning("DNS-SD conflict checks skipped: \(error)") }
                    sentinelWarned = true
                }
            }
            addEntries(id)
        } catch {
            publicationFailed(id, error)
        }
    }

    /// Adds the records to the (empty) group(s) and commits, renaming on a local collision.
    private func addEntries(_ id: UInt64) {
        guard let connection, let p = publications[id], let token = p.groupToken else { return }
        let txt: [[UInt8]]
        do { txt = try p.record.txt.wireStrings() } catch { return publicationFailed(id, error) }
        var name = p.currentName
        for _ in 0..<100 {
            let code: Int32
            switch publishing {
            case .probedServices:
                code = connection.addService(token, record: p.record, name: name, txt: txt)
            case .rawRecords:
                do {
                    code = try addRawRecords(connection, p, name: name, txt: txt)
                } catch {
                    return publicationFailed(id, error)
                }
            }
            if code == 0 {
                publications[id]?.currentName = name
                publications[id]?.state = .registering
                return
            }
            guard code == AvahiErrorCode.collision else {
                return publicationFailed(id, AvahiConnection.error(code, operation: "publish of \(name)"))
            }
            let next = MatterInstanceName.next(after: name, renaming: p.record.renaming, using: &random)
            logger.notice("DNS-SD name '\(name)' is taken here; trying '\(next)'")
            name = next
            connection.reset(token)
            if let sentinel = p.sentinelToken { connection.reset(sentinel) }
        }
        publicationFailed(
            id, .avahi(operation: "publish", code: AvahiErrorCode.collision, message: "no free name found"))
    }

    func groupStatusChanged(_ id: UInt64, _ status: AvahiGroupStatus, error: Int32) {
        guard let p = publications[id] else { return }
        switch status {
        case .established:
            publications[id]?.state = .established
            logger.info("published \(p.currentName).\(p.record.serviceType)")
            if let waiters = publications[id]?.waiters {
                publications[id]?.waiters.removeAll()
                for c in waiters.values { c.resume(returning: .success(p.currentName)) }
            }
        case .collision:
            renameAfterConflict(id)
        case .failure:
            publicationFailed(id, AvahiConnection.error(error, operation: "publish of \(p.currentName)"))
        case .uncommitted, .registering:
            break
        }
    }

    /// A peer owns the name: withdraw, pick the next name and publish again. Raw records get fresh
    /// entry groups (both groups report the collision; the old tokens' late events are ignored).
    private func renameAfterConflict(_ id: UInt64) {
        guard let p = publications[id] else { return }
        let next = MatterInstanceName.next(after: p.currentName, renaming: p.record.renaming, using: &random)
        logger.notice("DNS-SD name '\(p.currentName)' collides on the network; renaming to '\(next)'")
        publications[id]?.currentName = next
        switch publishing {
        case .probedServices:
            if let token = p.groupToken { connection?.reset(token) }
            addEntries(id)
        case .rawRecords:
            dropGroup(id)
            register(id)
        }
    }

    /// The sentinel's probes ended: ESTABLISHED means no peer claims the name; COLLISION (Avahi then
    /// withdrew the records of both groups) means one does.
    func sentinelStatusChanged(_ id: UInt64, _ status: AvahiGroupStatus, error: Int32) {
        guard let p = publications[id] else { return }
        switch status {
        case .collision:
            renameAfterConflict(id)
        case .failure:
            // Kept, not freed: freeing would send goodbyes for an SRV record the main group still has.
            logger.warning(
                "DNS-SD conflict check of \(p.currentName) failed: \(AvahiConnection.error(error, operation: "probe"))")
        case .established:
            publications[id]?.conflictChecked = true
            logger.debug("no conflict for \(p.currentName).\(p.record.serviceType)")
        case .uncommitted, .registering:
            break
        }
    }

    /// Raw records into the main group (answerable at once), a probed SRV copy into the sentinel.
    private func addRawRecords(_ connection: AvahiConnection, _ p: Publication, name: String, txt: [[UInt8]])
        throws(DiscoveryError) -> Int32
    {
        guard let token = p.groupToken, let host = connection.hostNameFQDN, let domain = connection.domainName else {
            throw .daemonUnavailable(detail: "the Avahi client has no host name yet")
        }
        guard let serviceName = AvahiConnection.serviceName(instance: name, type: p.record.serviceType, domain: domain)
        else {
            throw .invalidRecord("'\(name).\(p.record.serviceType)' is not a valid service name")
        }
        let records = try AvahiRawRecord.serviceRecords(
            p.record, instanceName: name, serviceName: serviceName, hostName: host, domain: domain, txt: txt)
        try ensureEnumeration(connection, serviceType: p.record.serviceType, domain: domain)
        let code = connection.addRecords(token, records, probe: false)
        guard code == 0, let sentinel = p.sentinelToken else { return code }
        let srv = records.filter { $0.type == AvahiRawRecord.typeSRV }
        return connection.addRecords(sentinel, srv, probe: true)
    }

    private func publicationFailed(_ id: UInt64, _ error: DiscoveryError) {
        logger.error("DNS-SD publication failed: \(error)")
        publications[id]?.state = .failed(error)
        failWaiters(id, error)
    }
}
