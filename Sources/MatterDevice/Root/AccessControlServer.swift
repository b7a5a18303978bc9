import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV

/// AccessControl 0x001F on endpoint 0: the ACL attribute (fabric-scoped), kept in the
/// ``FabricTable``'s `AccessControlList`, which also evaluates every access check; records
/// AccessControlEntryChanged.
final class AccessControlServer: RootClusterServer {
    typealias A = AttributeID.AccessControl

    static let subjectsPerEntry = 4
    static let targetsPerEntry = 3
    static let entriesPerFabric = 4

    let fabrics: FabricTable
    let checkpoint: (@Sendable (DeviceCheckpoint) -> Void)?

    init(fabrics: FabricTable, checkpoint: (@Sendable (DeviceCheckpoint) -> Void)?) {
        self.fabrics = fabrics
        self.checkpoint = checkpoint
        super.init(
            .accessControl,
            attributes: [
                A.acl, A.subjectsPerAccessControlEntry, A.targetsPerAccessControlEntry,
                A.accessControlEntriesPerFabric,
            ])
    }

    override var events: [EventInfo] {
        schema.event(.AccessControl.accessControlEntryChanged).map { [EventInfo($0)] } ?? []
    }

    override func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        switch attribute {
        case A.acl:
            let accessing = context.subject.fabricIndex
            let shown = fabrics.accessControl.entries.filter {
                !context.isFabricFiltered || $0.fabricIndex == accessing
            }
            // Other fabrics' entries show only their fabric index (fabric-sensitive fields withheld).
            return .array(shown.map { TLVElement($0.tlvValue(includeSensitive: $0.fabricIndex == accessing)) })
        case A.subjectsPerAccessControlEntry: return Field.uint(UInt16(Self.subjectsPerEntry))
        case A.targetsPerAccessControlEntry: return Field.uint(UInt16(Self.targetsPerEntry))
        case A.accessControlEntriesPerFabric: return Field.uint(UInt16(Self.entriesPerFabric))
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    /// Writes replace (or extend) only the accessing fabric's entries.
    override func write(_ attribute: AttributeID, _ write: AttributeWrite, context: InteractionContext) throws(StatusIB)
    {
        guard attribute == A.acl else { throw StatusIB(.unsupportedWrite) }
        let index = context.subject.fabricIndex
        guard index != 0 else { throw StatusIB(.unsupportedAccess) }
        let acl = fabrics.accessControl
        var entries: [AccessControlEntry]
        switch write {
        case .replace(let value):
            guard let items = TLVElement(value).members, value.isArrayOrList else { throw StatusIB(.invalidDataType) }
            entries = try items.map { e throws(StatusIB) in try validated(e) }
        case .append(let value):
            entries = acl.entries(fabric: index) + [try validated(TLVElement(value))]
        }
        guard entries.count <= Self.entriesPerFabric else { throw StatusIB(.resourceExhausted) }
        let previous = acl.entries(fabric: index)
        acl.replaceEntries(fabric: index, with: entries)
        recordChanges(from: previous, to: entries, fabric: index, subject: context.subject)
        checkpoint?(.aclWritten)
        fabrics.persistACL(index)
        checkpoint?(.aclPersisted)
        attributeChanged(A.acl)
    }

    /// AccessControlEntryChanged (fabric-sensitive: only `fabric` sees it), one per entry changed, added
    /// or removed by a write.
    private func recordChanges(
        from previous: [AccessControlEntry], to entries: [AccessControlEntry], fabric: UInt8,
        subject: SubjectDescriptor
    ) {
        let adminNode: TLVValue = subject.authMode == .case ? .unsigned(subject.subject) : .null
        let adminPasscode: TLVValue = subject.authMode == .pase ? .unsigned(0) : .null
        func record(_ change: UInt64, _ entry: AccessControlEntry) {
            let fields: TLVValue = .structure([
                TLVElement(tag: .context(1), adminNode), TLVElement(tag: .context(2), adminPasscode),
                TLVElement(tag: .context(3), .unsigned(change)), TLVElement(tag: .context(4), entry.tlvValue()),
                TLVElement(tag: .context(0xFE), .unsigned(UInt64(fabric))),
            ])
            recordEvent(.AccessControl.accessControlEntryChanged, priority: .info, fields: fields, fabricIndex: fabric)
        }
        for (position, entry) in entries.enumerated() {
            if position < previous.count {
                if previous[position] != entry { record(0, entry) }
            } else {
                record(1, entry)
            }
        }
        for entry in previous.dropFirst(entries.count) { record(2, entry) }
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
