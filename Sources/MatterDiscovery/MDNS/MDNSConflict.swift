/// Whether a received message challenges one of our unique names (RFC 6762 §8.1, §8.2 and §9), decided from
/// the message and our records alone.
package enum MDNSConflict {
    package enum Verdict: Sendable, Equatable {
        /// Nothing about this name, or only our own records (our multicast loops back to us).
        case none
        /// Another host answers with different data for the name: choose a new name and probe again.
        case conflict
        /// Another host probes for the name at the same time and its data wins the tie-break: wait one second,
        /// then probe again.
        case deferToProber
    }

    /// `ours`: our unique records under `name` (SRV, TXT). `probing`: whether we are still probing it.
    package static func check(_ message: DNSMessage, name: DNSName, ours: [DNSResourceRecord], probing: Bool)
        -> Verdict
    {
        func isOurs(_ record: DNSResourceRecord) -> Bool { ours.contains { $0.isSameRecord(as: record) } }
        if message.isResponse {
            // A goodbye (TTL 0) claims nothing. While probing, any other record under the name conflicts (§8.1);
            // once established, only a different record of a type we hold (§9: same name, type and class).
            let claims = (message.answers + message.additionals).filter { record in
                record.ttl > 0 && record.name == name && !isOurs(record)
                    && (probing || ours.contains { $0.type == record.type && $0.recordClass == record.recordClass })
            }
            return claims.isEmpty ? .none : .conflict
        }
        guard probing, message.questions.contains(where: { $0.name == name }) else { return .none }
        let theirs = message.authorities.filter { $0.name == name }
        guard !theirs.isEmpty else { return .none }
        return MDNSTieBreak.compare(ours: ours, theirs: theirs) == .theyWin ? .deferToProber : .none
    }
}
