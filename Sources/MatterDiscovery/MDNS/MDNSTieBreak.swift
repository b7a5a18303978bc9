/// The simultaneous-probe tie-break of RFC 6762 §8.2: when two hosts probe for the same name, each compares
/// its proposed records with the other's (the authority sections of the probes). Records are sorted by class
/// (cache-flush bit aside), then type, then RDATA as raw uncompressed bytes; the lists are compared record by
/// record, and the host whose data is lexicographically later wins. A list that is a prefix of the other
/// loses; identical lists are no conflict at all.
package enum MDNSTieBreak {
    package enum Outcome: Sendable, Equatable {
        /// Our data is later: keep probing, the other host defers.
        case weWin
        /// Their data is later: wait one second and probe again (§8.2).
        case theyWin
        /// Identical data: both hosts publish the same records, no conflict.
        case identical
    }

    package static func compare(ours: [DNSResourceRecord], theirs: [DNSResourceRecord]) -> Outcome {
        let a = sorted(ours)
        let b = sorted(theirs)
        for (x, y) in zip(a, b) {
            if x < y { return .theyWin }
            if y < x { return .weWin }
        }
        if a.count == b.count { return .identical }
        return a.count > b.count ? .weWin : .theyWin
    }

    /// A record's sort key: class, type, RDATA bytes.
    struct Key: Comparable {
        let recordClass: UInt16
        let type: UInt16
        let rdata: [UInt8]

        static func < (x: Key, y: Key) -> Bool {
            if x.recordClass != y.recordClass { return x.recordClass < y.recordClass }
            if x.type != y.type { return x.type < y.type }
            return x.rdata.lexicographicallyPrecedes(y.rdata)
        }
    }

    static func sorted(_ records: [DNSResourceRecord]) -> [Key] {
        records.map { Key(recordClass: $0.recordClass, type: $0.type.rawValue, rdata: $0.data.canonicalBytes) }.sorted()
    }
}
