import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

/// AccessControl (0x001F): the ACL attribute, fabric-scoped; entries are validated per spec 9.10.5.
extension RootNode {
    static let subjectsPerEntry = 4
    static let targetsPerEntry = 3
    static let entriesPerFabric = 4

    func readAccessControl(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        switch attribute.rawValue {
        case 0x0000:
            let accessing = fabricIndex(of: context.session)
            let indexes = acl.keys.sorted().filter { !context.isFabricFiltered || $0 == accessing }
            // Entries are fabric-sensitive: other fabrics' entries are not shown (read through their own fabric).
            return .array(indexes.filter { $0 == accessing }.flatMap { acl[$0] ?? [] })
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
        var entries: [TLVElement]
        switch write {
        case .replace(let value):
            guard case .array(let items) = value else {
                if case .list(let items) = value { entries = try items.map { e throws(StatusIB) in try validated(e, fabric: index) } ; break }
                throw StatusIB(.invalidDataType)
            }
            entries = try items.map { e throws(StatusIB) in try validated(e, fabric: index) }
        case .append(let value):
            entries = (acl[index] ?? []) + [try validated(TLVElement(value), fabric: index)]
        }
        guard entries.count <= Self.entriesPerFabric else { throw StatusIB(.resourceExhausted) }
        acl[index] = entries
        persistACL(index)
        changed(.accessControl, AttributeID(0x0000))
    }

    /// Checks an AccessControlEntryStruct and returns it normalized (fabric index set, empty lists as null).
    func validated(_ element: TLVElement, fabric: UInt8) throws(StatusIB) -> TLVElement {
        guard case .structure = element.value else { throw StatusIB(.invalidDataType) }
        guard let privilege = element[context: 1]?.uint, (1...5).contains(privilege),
              let authMode = element[context: 2]?.uint, (1...3).contains(authMode)
        else { throw StatusIB(.constraintError) }
        guard authMode != 1 else { throw StatusIB(.constraintError) }  // PASE entries are not writable
        guard !(authMode == 3 && privilege == 5) else { throw StatusIB(.constraintError) }
        var subjects: [UInt64] = []
        if let member = element[context: 3], !member.isNull {
            guard let items = member.members else { throw StatusIB(.invalidDataType) }
            for item in items {
                guard let subject = item.uint else { throw StatusIB(.invalidDataType) }
                if authMode == 2 {
                    guard isValidAdminSubject(subject) else { throw StatusIB(.constraintError) }
                } else {
                    guard (1...0xFFFF).contains(subject) else { throw StatusIB(.constraintError) }
                }
                subjects.append(subject)
            }
        }
        guard subjects.count <= Self.subjectsPerEntry else { throw StatusIB(.resourceExhausted) }
        var targets: [TLVElement] = []
        if let member = element[context: 4], !member.isNull {
            guard let items = member.members else { throw StatusIB(.invalidDataType) }
            for item in items {
                let cluster = item[context: 0].flatMap { $0.isNull ? nil : $0.uint }
                let endpoint = item[context: 1].flatMap { $0.isNull ? nil : $0.uint }
                let deviceType = item[context: 2].flatMap { $0.isNull ? nil : $0.uint }
                guard cluster != nil || endpoint != nil || deviceType != nil, !(endpoint != nil && deviceType != nil)
                else { throw StatusIB(.constraintError) }
                targets.append(TLVElement(Field.structure([
                    (0, cluster.map { .unsigned($0) } ?? .null), (1, endpoint.map { .unsigned($0) } ?? .null),
                    (2, deviceType.map { .unsigned($0) } ?? .null),
                ])))
            }
        }
        guard targets.count <= Self.targetsPerEntry else { throw StatusIB(.resourceExhausted) }
        return TLVElement(Field.structure([
            (1, .unsigned(privilege)), (2, .unsigned(authMode)),
            (3, subjects.isEmpty ? .null : .array(subjects.map { TLVElement(.unsigned($0)) })),
            (4, targets.isEmpty ? .null : .array(targets)), (0xFE, Field.uint(fabric)),
        ]))
    }
}
