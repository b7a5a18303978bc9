import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV

/// AccessControl (0x001F): the ACL attribute (fabric-scoped), stored in the data model's
/// `AccessControlList`, which also evaluates every access check.
extension RootNode {
    static let subjectsPerEntry = 4
    static let targetsPerEntry = 3
    static let entriesPerFabric = 4

    func readAccessControl(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        switch attribute.rawValue {
        case 0x0000:
            let accessing = fabricIndex(of: context.session)
            let shown = accessControl.entries.filter { !context.isFabricFiltered || $0.fabricIndex == accessing }
            // Other fabrics' entries show only their fabric index (fabric-sensitive fields withheld).
            return .array(shown.map { TLVElement($0.tlvValue(includeSensitive: $0.fabricIndex == accessing)) })
        case 0x0002: return Field.uint(UInt16(Self.subjectsPerEntry))
        case 0x0003: return Field.uint(UInt16(Self.targetsPerEntry))
        case 0x0004: return Field.uint(UInt16(Self.entriesPerFabric))
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    /// Writes replace (or extend) only the accessing fabric's entries.
    func writeACL(_ write: AttributeWrite, context: InteractionContext) throws(StatusIB) {
        let index = fabricIndex(of: context.session)
        guard index != 0 else { throw StatusIB(.unsupportedAccess) }
        var entries: [AccessControlEntry]
        switch write {
        case .replace(let value):
            guard let items = TLVElement(value).members, value.isArrayOrList else { throw StatusIB(.invalidDataType) }
            entries = try items.map { e throws(StatusIB) in try validated(e) }
        case .append(let value):
            entries = accessControl.entries(fabric: index) + [try validated(TLVElement(value))]
        }
        guard entries.count <= Self.entriesPerFabric else { throw StatusIB(.resourceExhausted) }
        let previous = accessControl.entries(fabric: index)
        accessControl.replaceEntries(fabric: index, with: entries)
        recordACLChanges(from: previous, to: entries, fabric: index, subject: context.subject)
        checkpoint?(.aclWritten)
        persistACL(index)
        checkpoint?(.aclPersisted)
        changed(.accessControl, AttributeID(0x0000))
    }

    /// AccessControlEntryChanged (fabric-sensitive: only `fabric` sees it), one per entry changed, added
    /// or removed by a write.
    private func recordACLChanges(
        from previous: [AccessControlEntry], to entries: [AccessControlEntry], fabric: UInt8,
        subject: SubjectDescriptor
    ) {
        guard let record = onACLEvent else { return }
        let adminNode: TLVValue = subject.authMode == .case ? .unsigned(subject.subject) : .null
        let adminPasscode: TLVValue = subject.authMode == .pase ? .unsigned(0) : .null
        func fields(_ change: UInt64, _ entry: AccessControlEntry) -> TLVValue {
            .structure([
                TLVElement(tag: .context(1), adminNode), TLVElement(tag: .context(2), adminPasscode),
                TLVElement(tag: .context(3), .unsigned(change)), TLVElement(tag: .context(4), entry.tlvValue()),
                TLVElement(tag: .context(0xFE), .unsigned(UInt64(fabric))),
            ])
        }
        for (position, entry) in entries.enumerated() {
            if position < previous.count {
                if previous[position] != entry { record(fields(0, entry), fabric) }
            } else {
                record(fields(1, entry), fabric)
            }
        }
        for entry in previous.dropFirst(entries.count) { record(fields(2, entry), fabric) }
    }

    private func validated(_ element: TLVElement) throws(StatusIB) -> AccessControlEntry {
        let entry = try AccessControlEntry(tlv: element)
        try entry.validate()
        guard entry.subjects.count <= Self.subjectsPerEntry, entry.targets.count <= Self.targetsPerEntry else {
            throw StatusIB(.resourceExhausted)
        }
        return entry
    }
}

extension TLVValue {
    var isArrayOrList: Bool {
        switch self {
        case .array, .list: true
        default: false
        }
    }
}
