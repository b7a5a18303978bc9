/// Every record a responder answers for, keyed by name and type, so a question costs a hash lookup plus the
/// records it returns, whatever the number of services published (RFC 6762 §6; issue 29's fleets).
///
/// A record may be held by several owners (the `_services._dns-sd._udp` PTR of a service type is the same for
/// every instance of it): it is answered once, and leaves the index with its last owner.
package struct MDNSRecordIndex: Sendable {
    /// Who put a record in the index: a publication, or the responder itself (its host's address records).
    package typealias Owner = UInt64

    package struct Entry: Sendable, Hashable {
        package var record: DNSResourceRecord
        /// Unique (SRV, TXT, A, AAAA: sent with the cache-flush bit, answered at once) or shared (PTR).
        package var unique: Bool
        package var owners: Set<Owner>
    }

    package struct Key: Hashable, Sendable {
        package var name: DNSName
        package var type: DNSRecordType
    }

    private var entries: [Key: [DNSRecordData: Entry]] = [:]
    /// The types present under each name, for ANY questions.
    private var typesByName: [DNSName: Set<DNSRecordType>] = [:]
    /// What each owner holds, record by record: a fleet's instances share the service-type and subtype PTR
    /// names, so an owner's records are found (and removed) without walking every instance under those names.
    private var heldByOwner: [Owner: [Key: Set<DNSRecordData>]] = [:]

    package init() {}

    /// Number of distinct records held.
    package var count: Int { entries.values.reduce(0) { $0 + $1.count } }

    /// Adds `record` for `owner` (a record already held gains an owner; its TTL and flags are updated).
    package mutating func insert(_ record: DNSResourceRecord, unique: Bool, owner: Owner) {
        let key = Key(name: record.name, type: record.type)
        var record = record
        record.cacheFlush = unique
        var entry = entries[key]?[record.data] ?? Entry(record: record, unique: unique, owners: [])
        entry.record = record
        entry.unique = unique
        entry.owners.insert(owner)
        entries[key, default: [:]][record.data] = entry
        typesByName[record.name, default: []].insert(record.type)
        heldByOwner[owner, default: [:]][key, default: []].insert(record.data)
    }

    /// Removes everything `owner` holds and returns the records that left the index (no other owner), for
    /// goodbyes.
    @discardableResult
    package mutating func remove(owner: Owner) -> [Entry] {
        guard let held = heldByOwner.removeValue(forKey: owner) else { return [] }
        var gone: [Entry] = []
        for (key, datas) in held {
            guard var byData = entries[key] else { continue }
            for data in datas {
                guard var entry = byData[data], entry.owners.contains(owner) else { continue }
                entry.owners.remove(owner)
                if entry.owners.isEmpty {
                    byData[data] = nil
                    gone.append(entry)
                } else {
                    byData[data] = entry
                }
            }
            if byData.isEmpty {
                entries[key] = nil
                typesByName[key.name]?.remove(key.type)
                if typesByName[key.name]?.isEmpty == true { typesByName[key.name] = nil }
            } else {
                entries[key] = byData
            }
        }
        return gone
    }

    /// The records of one name and type.
    package func records(named name: DNSName, type: DNSRecordType) -> [Entry] {
        entries[Key(name: name, type: type)].map { Array($0.values) } ?? []
    }

    /// The records answering `question` (every type for ANY), class IN or ANY.
    package func answers(to question: DNSQuestion) -> [Entry] {
        guard question.questionClass == DNSClass.internet || question.questionClass == 255 else { return [] }
        if question.type == .any {
            return (typesByName[question.name] ?? []).sorted().flatMap { records(named: question.name, type: $0) }
        }
        return records(named: question.name, type: question.type)
    }

    /// The record of one name, type and data, if held.
    package func entry(named name: DNSName, type: DNSRecordType, data: DNSRecordData) -> Entry? {
        entries[Key(name: name, type: type)]?[data]
    }

    /// True when a record of `record`'s name, type and data is held (whatever its TTL and flags).
    package func contains(_ record: DNSResourceRecord) -> Bool {
        entry(named: record.name, type: record.type, data: record.data) != nil
    }

    /// True when some record is held under `name`.
    package func contains(name: DNSName) -> Bool { typesByName[name] != nil }

    /// Every record `owner` holds.
    package func records(of owner: Owner) -> [Entry] {
        (heldByOwner[owner] ?? [:]).flatMap { key, datas in datas.compactMap { entries[key]?[$0] } }
    }
}
