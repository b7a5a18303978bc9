import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

/// Users and PIN credentials (spec 5.2.10, features USR and PIN): SetUser, GetUser, ClearUser,
/// SetCredential, GetCredentialStatus, ClearCredential, each change with a LockUserChange event.
extension DoorLockServer {
    /// DlStatus values the Door Lock answers with besides the IM statuses.
    enum LockStatus: UInt8 {
        case success = 0
        case failure = 1
        case duplicate = 2
        case occupied = 3
        case invalidField = 0x85
        case resourceExhausted = 0x89
        case notFound = 0x8B
    }

    /// LockDataTypeEnum.
    enum LockDataType: UInt64 {
        case userIndex = 2
        case weekDaySchedule = 3
        case yearDaySchedule = 4
        case pin = 6
    }

    /// DataOperationTypeEnum.
    enum DataOperation: UInt64 {
        case add = 0
        case clear = 1
        case modify = 2
    }

    /// "Every index" in ClearUser and ClearCredential.
    static let allIndices: UInt16 = 0xFFFE

    /// The fabric a change is recorded against (0 without one, e.g. over PASE).
    static func fabricIndex(_ context: InteractionContext) -> UInt8 { context.subject.fabricIndex }

    /// A user index the lock can hold (1...NumberOfTotalUsersSupported), else INVALID_COMMAND.
    func checkedUserIndex(_ index: UInt16) throws(StatusIB) -> UInt16 {
        guard (1...table.limits.users).contains(index) else { throw StatusIB(.invalidCommand) }
        return index
    }

    func recordUserChange(
        _ type: LockDataType, _ operation: DataOperation, user: UInt16?, dataIndex: UInt16?, context: InteractionContext
    ) {
        recordEvent(
            .DoorLock.lockUserChange, priority: .info,
            fields: .structure([
                TLVElement(tag: .context(0), .unsigned(type.rawValue)),
                TLVElement(tag: .context(1), .unsigned(operation.rawValue)),
                TLVElement(tag: .context(2), .unsigned(Source.remote.rawValue)),
                TLVElement(tag: .context(3), user.map { .unsigned(UInt64($0)) } ?? .null),
                TLVElement(tag: .context(4), Self.fabric(context)),
                TLVElement(tag: .context(5), Self.node(context)),
                TLVElement(tag: .context(6), dataIndex.map { .unsigned(UInt64($0)) } ?? .null),
            ]))
    }

    // MARK: - Users

    /// SetUser: Add (a free index) or Modify (an existing user; a fabric other than its creator may
    /// not change its name or unique ID). Clear is ClearUser's, not SetUser's.
    func setUser(_ fields: CommandFields, context: InteractionContext) throws(StatusIB) {
        let operation = try fields.unsigned(0, UInt8.self)
        let index = try checkedUserIndex(try fields.unsigned(1, UInt16.self))
        let name = try fields.nullableString(2)
        if let name, name.utf8.count > 10 { throw StatusIB(.invalidCommand) }  // the SDK's answer
        let uniqueID = try fields.nullableUnsigned(3, UInt32.self)
        let status = try fields.nullableUnsigned(4, UInt8.self)
        let type = try fields.nullableUnsigned(5, UInt8.self)
        let rule = try fields.nullableUnsigned(6, UInt8.self)
        if let status, status != 1, status != 3 { throw StatusIB(.invalidCommand) }
        if let type, type > 9 { throw StatusIB(.invalidCommand) }
        if let rule, rule != 0 { throw StatusIB(.invalidCommand) }  // CredentialRulesSupport: Single only
        let fabric = Self.fabricIndex(context)
        switch DataOperation(rawValue: UInt64(operation)) {
        case .add:
            guard table.users[index] == nil else { throw StatusIB.cluster(LockStatus.occupied.rawValue) }
            table.users[index] = DoorLockUserTable.User(
                name: name ?? "", uniqueID: uniqueID, status: status ?? 1, type: type ?? 0, credentialRule: rule ?? 0,
                creatorFabric: fabric, lastModifiedFabric: fabric)
            persistTable()
            recordUserChange(.userIndex, .add, user: index, dataIndex: index, context: context)
        case .modify:
            guard var user = table.users[index] else { throw StatusIB(.invalidCommand) }
            if user.creatorFabric != fabric, name != nil || uniqueID != nil { throw StatusIB(.invalidCommand) }
            if let name { user.name = name }
            if let uniqueID { user.uniqueID = uniqueID }
            if let status { user.status = status }
            if let type { user.type = type }
            if let rule { user.credentialRule = rule }
            user.lastModifiedFabric = fabric
            table.users[index] = user
            persistTable()
            recordUserChange(.userIndex, .modify, user: index, dataIndex: index, context: context)
        case .clear, nil:
            throw StatusIB(.invalidCommand)
        }
    }

    /// GetUser: the user at the index (all nullable fields null for a free index) and the next
    /// occupied index.
    func getUser(_ fields: CommandFields) throws(StatusIB) -> CommandResponse {
        let index = try checkedUserIndex(try fields.unsigned(0, UInt16.self))
        let user = table.users[index]
        func optional(_ value: UInt64?) -> TLVValue { value.map { .unsigned($0) } ?? .null }
        let credentials: TLVValue =
            user.map { _ in .array(table.pinIndices(of: index).map(Self.credentialElement)) }
            ?? .null
        return CommandResponse(
            command: .DoorLock.getUserResponse,
            fields: .structure([
                TLVElement(tag: .context(0), .unsigned(UInt64(index))),
                TLVElement(tag: .context(1), user.map { .utf8($0.name) } ?? .null),
                TLVElement(tag: .context(2), optional(user?.uniqueID.map(UInt64.init))),
                TLVElement(tag: .context(3), optional(user.map { UInt64($0.status) })),
                TLVElement(tag: .context(4), optional(user.map { UInt64($0.type) })),
                TLVElement(tag: .context(5), optional(user.map { UInt64($0.credentialRule) })),
                TLVElement(tag: .context(6), credentials),
                TLVElement(tag: .context(7), optional(user.map { UInt64($0.creatorFabric) })),
                TLVElement(tag: .context(8), optional(user.map { UInt64($0.lastModifiedFabric) })),
                TLVElement(tag: .context(9), optional(table.nextUser(after: index).map(UInt64.init))),
            ]))
    }

    /// ClearUser: one user (with its credentials and schedules) or every user (0xFFFE).
    func clearUser(_ fields: CommandFields, context: InteractionContext) throws(StatusIB) {
        let index = try fields.unsigned(0, UInt16.self)
        if index == Self.allIndices {
            table.users = [:]
            table.pins = [:]
            persistTable()
            recordUserChange(.userIndex, .clear, user: Self.allIndices, dataIndex: Self.allIndices, context: context)
            return
        }
        _ = try checkedUserIndex(index)
        guard table.users[index] != nil else { return }
        removeUser(index, context: context)
        persistTable()
    }

    /// Removes a user and its PIN credentials (events for each), without persisting.
    private func removeUser(_ index: UInt16, context: InteractionContext) {
        for pin in table.pinIndices(of: index) {
            table.pins[pin] = nil
            recordUserChange(.pin, .clear, user: index, dataIndex: pin, context: context)
        }
        table.users[index] = nil
        recordUserChange(.userIndex, .clear, user: index, dataIndex: index, context: context)
    }

    // MARK: - Credentials

    /// SetCredential for PIN credentials: Add (to a given user, or to a new one at the first free
    /// index when UserIndex is null) or Modify (the PIN of a credential of that user). Answers
    /// SetCredentialResponse with the DlStatus and the next free credential index.
    func setCredential(_ fields: CommandFields, context: InteractionContext) throws(StatusIB) -> CommandResponse {
        let operation = DataOperation(rawValue: UInt64(try fields.unsigned(0, UInt8.self)))
        let credential = try fields.structure(1)
        let type = try credential.unsigned(0, UInt8.self)
        let index = try credential.unsigned(1, UInt16.self)
        let data = try fields.octets(2)
        let userIndex = try fields.nullableUnsigned(3, UInt16.self)
        let status = try fields.nullableUnsigned(4, UInt8.self)
        let userType = try fields.nullableUnsigned(5, UInt8.self)
        func answer(_ status: LockStatus, user: UInt16? = nil) -> CommandResponse {
            CommandResponse(
                command: .DoorLock.setCredentialResponse,
                fields: .structure([
                    TLVElement(tag: .context(0), .unsigned(UInt64(status.rawValue))),
                    TLVElement(tag: .context(1), user.map { .unsigned(UInt64($0)) } ?? .null),
                    TLVElement(
                        tag: .context(2), table.nextFreePIN(after: index).map { .unsigned(UInt64($0)) } ?? .null),
                ]))
        }
        let limits = table.limits
        guard UInt64(type) == Self.pinCredentialType, (1...limits.pinCredentials).contains(index),
            (Int(limits.minPINLength)...Int(limits.maxPINLength)).contains(data.count)
        else { return answer(.invalidField) }
        if let status, status != 1, status != 3 { return answer(.invalidField) }
        if let userType, userType > 9 { return answer(.invalidField) }
        if let other = table.pin(matching: data), other.index != index { return answer(.duplicate) }
        let fabric = Self.fabricIndex(context)
        switch operation {
        case .add:
            guard table.pins[index] == nil else { return answer(.occupied) }
            let owner: UInt16
            if let userIndex {
                guard (1...limits.users).contains(userIndex), table.users[userIndex] != nil, status == nil,
                    userType == nil
                else { return answer(.invalidField) }
                guard table.pinIndices(of: userIndex).count < Int(limits.credentialsPerUser) else {
                    return answer(.resourceExhausted)
                }
                owner = userIndex
            } else {
                guard let free = table.firstFreeUser else { return answer(.resourceExhausted) }
                table.users[free] = DoorLockUserTable.User(
                    status: status ?? 1, type: userType ?? 0, creatorFabric: fabric, lastModifiedFabric: fabric)
                recordUserChange(.userIndex, .add, user: free, dataIndex: free, context: context)
                owner = free
            }
            table.pins[index] = DoorLockUserTable.PINCredential(
                data: data, user: owner, creatorFabric: fabric, lastModifiedFabric: fabric)
            persistTable()
            recordUserChange(.pin, .add, user: owner, dataIndex: index, context: context)
            return answer(.success, user: userIndex == nil ? owner : nil)
        case .modify:
            guard var existing = table.pins[index], let userIndex, existing.user == userIndex else {
                return answer(.invalidField)
            }
            existing.data = data
            existing.lastModifiedFabric = fabric
            table.pins[index] = existing
            persistTable()
            recordUserChange(.pin, .modify, user: userIndex, dataIndex: index, context: context)
            return answer(.success)
        case .clear, nil:
            return answer(.invalidField)
        }
    }

    /// GetCredentialStatus of a PIN credential: whether it exists, its user and fabrics, and the next
    /// occupied credential index.
    func getCredentialStatus(_ fields: CommandFields) throws(StatusIB) -> CommandResponse {
        let credential = try fields.structure(0)
        let type = try credential.unsigned(0, UInt8.self)
        let index = try credential.unsigned(1, UInt16.self)
        guard UInt64(type) == Self.pinCredentialType, (1...table.limits.pinCredentials).contains(index) else {
            throw StatusIB(.invalidCommand)
        }
        let pin = table.pins[index]
        func optional(_ value: UInt64?) -> TLVValue { value.map { .unsigned($0) } ?? .null }
        return CommandResponse(
            command: .DoorLock.getCredentialStatusResponse,
            fields: .structure([
                TLVElement(tag: .context(0), .bool(pin != nil)),
                TLVElement(tag: .context(1), optional(pin.map { UInt64($0.user) })),
                TLVElement(tag: .context(2), optional(pin.map { UInt64($0.creatorFabric) })),
                TLVElement(tag: .context(3), optional(pin.map { UInt64($0.lastModifiedFabric) })),
                TLVElement(tag: .context(4), optional(table.nextPIN(after: index).map(UInt64.init))),
            ]))
    }

    /// ClearCredential: one PIN credential, every PIN (index 0xFFFE), or every credential (null). A
    /// user left without credentials is cleared too.
    func clearCredential(_ fields: CommandFields, context: InteractionContext) throws(StatusIB) {
        var indices: [UInt16]
        if let credential = try fields.nullableStructure(0) {
            let type = try credential.unsigned(0, UInt8.self)
            let index = try credential.unsigned(1, UInt16.self)
            guard UInt64(type) == Self.pinCredentialType else { throw StatusIB(.invalidCommand) }
            if index == Self.allIndices {
                indices = table.pins.keys.sorted()
            } else {
                guard (1...table.limits.pinCredentials).contains(index) else { throw StatusIB(.invalidCommand) }
                indices = table.pins[index] == nil ? [] : [index]
            }
        } else {
            indices = table.pins.keys.sorted()
        }
        guard !indices.isEmpty else { return }
        for index in indices {
            guard let pin = table.pins.removeValue(forKey: index) else { continue }
            recordUserChange(.pin, .clear, user: pin.user, dataIndex: index, context: context)
            if table.pinIndices(of: pin.user).isEmpty, table.users[pin.user] != nil {
                removeUser(pin.user, context: context)
            }
        }
        persistTable()
    }
}
