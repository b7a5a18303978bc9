package import MatterClusters
package import MatterCore
package import MatterInteraction
package import MatterTLV

/// Door Lock 0x0101 (rev 9) with users and PIN credentials (features PIN, COTA, USR), week-day and
/// year-day schedules (WDSCH, YDSCH): LockState, LockType, ActuatorEnabled, OperatingMode (writable
/// with Manage; only supported modes), the timed LockDoor/UnlockDoor with a PIN checked against the
/// credentials (always when one is sent; required when RequirePINforRemoteOperation is true), the
/// wrong-code lock-out (WrongCodeEntryLimit wrong PINs lock remote operation out for
/// UserCodeTemporaryDisableTime seconds, with a DoorLockAlarm), AutoRelockTime, and the
/// DoorLockAlarm, LockOperation, LockOperationError and LockUserChange events. Users, credentials,
/// schedules, lock state and settings are persisted. Schedules are kept and reported but not enforced
/// (the device has no local time zone).
package final class DoorLockServer: ClusterServer {
    /// LockStateEnum.
    package typealias LockState = Clusters.DoorLock.LockStateEnum

    /// OperatingModeEnum.
    package typealias OperatingMode = Clusters.DoorLock.OperatingModeEnum

    /// Construction parameters.
    package struct Configuration: Hashable, Sendable {
        /// LockType (LockTypeEnum; 0 dead bolt).
        package var lockType: UInt8 = 0
        /// LockState before anything is persisted.
        package var initialState: LockState = .locked
        /// SupportedOperatingModes, inverted bitmap (bit = 0: supported). Default: Normal and
        /// NoRemoteLockUnlock.
        package var supportedOperatingModes: UInt16 = 0xFFF6
        /// WrongCodeEntryLimit before a controller writes one.
        package var wrongCodeEntryLimit: UInt8 = 5
        /// UserCodeTemporaryDisableTime (seconds) before a controller writes one.
        package var userCodeTemporaryDisableTime: UInt8 = 10

        package init() {}
    }

    /// OperationSourceEnum.
    enum Source: UInt64 {
        case auto = 4
        case remote = 7
    }

    /// OperationErrorEnum.
    enum OperationError: UInt64 {
        case unspecified = 0
        case invalidCredential = 1
        case disabledUserDenied = 2
        case restricted = 3
    }

    /// AlarmCodeEnum WrongCodeEntryLimit.
    static let wrongCodeEntryLimitAlarm: UInt64 = 4
    /// Features PIN | WDSCH | COTA | USR | YDSCH.
    static let features: UInt32 = 0x0001 | 0x0010 | 0x0080 | 0x0100 | 0x0400

    package let configuration: Configuration
    /// LockState (nil: unknown).
    package internal(set) var lockState: LockState?
    /// OperatingMode.
    package internal(set) var operatingMode: OperatingMode = .normal
    /// WrongCodeEntryLimit.
    package internal(set) var wrongCodeEntryLimit: UInt8
    /// UserCodeTemporaryDisableTime, seconds.
    package internal(set) var userCodeTemporaryDisableTime: UInt8
    /// AutoRelockTime, seconds (0: off).
    package internal(set) var autoRelockTime: UInt32 = 0
    /// RequirePINforRemoteOperation.
    package internal(set) var requirePINForRemoteOperation = false
    /// SendPINOverTheAir.
    package internal(set) var sendPINOverTheAir = false

    /// Users, PIN credentials and schedules.
    var table = DoorLockUserTable()
    /// Wrong PINs since the last right one or lock-out.
    var wrongCodeEntries = 0
    /// Until when remote operation is locked out (data-model clock, ms).
    var lockedOutUntil: UInt64?
    private lazy var relockTimer = makeTimer { [unowned self] in self.autoRelock() }

    package init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.lockState = configuration.initialState
        self.wrongCodeEntryLimit = configuration.wrongCodeEntryLimit
        self.userCodeTemporaryDisableTime = configuration.userCodeTemporaryDisableTime
        super.init(id: .doorLock, revision: ClusterSchema.doorLock.revision, featureMap: Self.features)
    }

    override package var attributes: [AttributeInfo] {
        typealias A = AttributeID.DoorLock
        return Self.attributeInfos(
            .doorLock,
            [
                A.lockState, A.lockType, A.actuatorEnabled, A.numberOfTotalUsersSupported,
                A.numberOfPINUsersSupported, A.numberOfWeekDaySchedulesSupportedPerUser,
                A.numberOfYearDaySchedulesSupportedPerUser, A.maxPINCodeLength, A.minPINCodeLength,
                A.credentialRulesSupport, A.numberOfCredentialsSupportedPerUser, A.autoRelockTime, A.operatingMode,
                A.supportedOperatingModes, A.wrongCodeEntryLimit, A.userCodeTemporaryDisableTime,
                A.sendPINOverTheAir, A.requirePINForRemoteOperation,
            ])
    }

    /// The requests this server handles (the model has more: Aliro, unbolting, timeouts).
    static let implementedCommands: [CommandID] = {
        typealias C = CommandID.DoorLock
        return [
            C.lockDoor, C.unlockDoor, C.setWeekDaySchedule, C.getWeekDaySchedule, C.clearWeekDaySchedule,
            C.setYearDaySchedule, C.getYearDaySchedule, C.clearYearDaySchedule, C.setUser, C.getUser, C.clearUser,
            C.setCredential, C.getCredentialStatus, C.clearCredential,
        ]
    }()

    override package var acceptedCommands: [CommandInfo] { Self.commandInfos(.doorLock, Self.implementedCommands) }

    override package var generatedCommands: [CommandID] {
        typealias C = CommandID.DoorLock
        return [
            C.getWeekDayScheduleResponse, C.getYearDayScheduleResponse, C.getUserResponse, C.setCredentialResponse,
            C.getCredentialStatusResponse,
        ]
    }

    override package var events: [EventInfo] {
        typealias E = EventID.DoorLock
        let emitted: Set<EventID> = [E.doorLockAlarm, E.lockOperation, E.lockOperationError, E.lockUserChange]
        return ClusterSchema.doorLock.events.filter { emitted.contains($0.id) }.map(EventInfo.init)
    }

    // MARK: - Lifecycle

    override package func start() {
        typealias A = AttributeID.DoorLock
        if let stored = loadPersisted(A.lockState) {
            if case .unsigned(let raw) = stored {
                lockState = UInt8(exactly: raw).flatMap(LockState.init)
            } else {
                lockState = nil
            }
        }
        if case .unsigned(let raw)? = loadPersisted(A.operatingMode),
            let mode = UInt8(exactly: raw).flatMap(OperatingMode.init), isSupported(mode)
        {
            operatingMode = mode
        }
        if let limit = storedByte(A.wrongCodeEntryLimit), limit > 0 { wrongCodeEntryLimit = limit }
        if let time = storedByte(A.userCodeTemporaryDisableTime), time > 0 { userCodeTemporaryDisableTime = time }
        if case .unsigned(let raw)? = loadPersisted(A.autoRelockTime), let time = UInt32(exactly: raw) {
            autoRelockTime = time
        }
        if case .bool(let flag)? = loadPersisted(A.requirePINForRemoteOperation) { requirePINForRemoteOperation = flag }
        if case .bool(let flag)? = loadPersisted(A.sendPINOverTheAir) { sendPINOverTheAir = flag }
        if let stored = loadPersisted(named: Self.tableKey),
            let loaded = DoorLockUserTable(tlv: stored, limits: table.limits)
        {
            table = loaded
        }
    }

    override package func stop() { relockTimer.cancel() }

    private func storedByte(_ attribute: AttributeID) -> UInt8? {
        guard case .unsigned(let raw)? = loadPersisted(attribute) else { return nil }
        return UInt8(exactly: raw)
    }

    /// The store name of the users, credentials and schedules.
    static let tableKey = "users"

    /// Persists the users, credentials and schedules (after every change).
    func persistTable() { persist(named: Self.tableKey, table.tlv) }

    /// True when SupportedOperatingModes (inverted) lists `mode`.
    package func isSupported(_ mode: OperatingMode) -> Bool {
        configuration.supportedOperatingModes & (1 << UInt16(mode.rawValue)) == 0
    }

    // MARK: - Attributes

    override package func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        typealias A = AttributeID.DoorLock
        let limits = table.limits
        switch attribute {
        case A.lockState: return lockState.map { .unsigned(UInt64($0.rawValue)) } ?? .null
        case A.lockType: return .unsigned(UInt64(configuration.lockType))
        case A.actuatorEnabled: return .bool(true)
        case A.numberOfTotalUsersSupported: return .unsigned(UInt64(limits.users))
        case A.numberOfPINUsersSupported: return .unsigned(UInt64(limits.pinCredentials))
        case A.numberOfWeekDaySchedulesSupportedPerUser: return .unsigned(UInt64(limits.weekDaySchedulesPerUser))
        case A.numberOfYearDaySchedulesSupportedPerUser: return .unsigned(UInt64(limits.yearDaySchedulesPerUser))
        case A.maxPINCodeLength: return .unsigned(UInt64(limits.maxPINLength))
        case A.minPINCodeLength: return .unsigned(UInt64(limits.minPINLength))
        case A.credentialRulesSupport: return .unsigned(1)  // Single
        case A.numberOfCredentialsSupportedPerUser: return .unsigned(UInt64(limits.credentialsPerUser))
        case A.autoRelockTime: return .unsigned(UInt64(autoRelockTime))
        case A.operatingMode: return .unsigned(UInt64(operatingMode.rawValue))
        case A.supportedOperatingModes: return .unsigned(UInt64(configuration.supportedOperatingModes))
        case A.wrongCodeEntryLimit: return .unsigned(UInt64(wrongCodeEntryLimit))
        case A.userCodeTemporaryDisableTime: return .unsigned(UInt64(userCodeTemporaryDisableTime))
        case A.sendPINOverTheAir: return .bool(sendPINOverTheAir)
        case A.requirePINForRemoteOperation: return .bool(requirePINForRemoteOperation)
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    override package func write(_ attribute: AttributeID, _ write: AttributeWrite, context: InteractionContext)
        throws(StatusIB)
    {
        typealias A = AttributeID.DoorLock
        let value = WriteValue(write)
        switch attribute {
        case A.operatingMode:
            guard let mode = OperatingMode(rawValue: try value.unsigned(UInt8.self)), isSupported(mode) else {
                throw StatusIB(.constraintError)
            }
            guard mode != operatingMode else { return }
            operatingMode = mode
            persist(attribute, .unsigned(UInt64(mode.rawValue)))
        case A.wrongCodeEntryLimit:
            let limit = try value.unsigned(UInt8.self)
            guard limit >= 1 else { throw StatusIB(.constraintError) }
            guard limit != wrongCodeEntryLimit else { return }
            wrongCodeEntryLimit = limit
            persist(attribute, .unsigned(UInt64(limit)))
        case A.userCodeTemporaryDisableTime:
            let time = try value.unsigned(UInt8.self)
            guard time >= 1 else { throw StatusIB(.constraintError) }
            guard time != userCodeTemporaryDisableTime else { return }
            userCodeTemporaryDisableTime = time
            persist(attribute, .unsigned(UInt64(time)))
        case A.autoRelockTime:
            let time = try value.unsigned(UInt32.self)
            guard time != autoRelockTime else { return }
            autoRelockTime = time
            persist(attribute, .unsigned(UInt64(time)))
        case A.requirePINForRemoteOperation:
            let flag = try value.bool()
            guard flag != requirePINForRemoteOperation else { return }
            requirePINForRemoteOperation = flag
            persist(attribute, .bool(flag))
        case A.sendPINOverTheAir:
            let flag = try value.bool()
            guard flag != sendPINOverTheAir else { return }
            sendPINOverTheAir = flag
            persist(attribute, .bool(flag))
        default:
            throw StatusIB(.unsupportedWrite)
        }
        attributeChanged(attribute)
    }

    // MARK: - Commands

    override package func invoke(_ command: CommandID, fields: CommandFields, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        typealias C = CommandID.DoorLock
        switch command {
        case C.lockDoor, C.unlockDoor:
            try remoteOperation(locking: command == C.lockDoor, pin: try fields.optionalOctets(0), context: context)
            return nil
        case C.setUser: try setUser(fields, context: context)
        case C.getUser: return try getUser(fields)
        case C.clearUser: try clearUser(fields, context: context)
        case C.setCredential: return try setCredential(fields, context: context)
        case C.getCredentialStatus: return try getCredentialStatus(fields)
        case C.clearCredential: try clearCredential(fields, context: context)
        case C.setWeekDaySchedule: try setWeekDaySchedule(fields, context: context)
        case C.getWeekDaySchedule: return try getWeekDaySchedule(fields)
        case C.clearWeekDaySchedule: try clearWeekDaySchedule(fields, context: context)
        case C.setYearDaySchedule: try setYearDaySchedule(fields, context: context)
        case C.getYearDaySchedule: return try getYearDaySchedule(fields)
        case C.clearYearDaySchedule: try clearYearDaySchedule(fields, context: context)
        default: throw StatusIB(.unsupportedCommand)
        }
        return nil
    }

    /// LockDoor / UnlockDoor from a controller: refused in NoRemoteLockUnlock mode and during a
    /// lock-out; a PIN, when sent, must be an enabled user's, and one is required when
    /// RequirePINforRemoteOperation is true. A wrong or missing required PIN counts toward the
    /// lock-out. Every refusal answers FAILURE with a LockOperationError event.
    func remoteOperation(locking: Bool, pin: [UInt8]?, context: InteractionContext) throws(StatusIB) {
        let operation: UInt64 = locking ? 0 : 1
        func refuse(_ error: OperationError, user: UInt16? = nil, credential: UInt16? = nil) -> StatusIB {
            recordOperation(
                .DoorLock.lockOperationError, operation: operation, error: error, user: user,
                credential: credential, context: context)
            return StatusIB(.failure)
        }
        guard operatingMode != .noRemoteLockUnlock else { throw refuse(.restricted) }
        if let until = lockedOutUntil {
            guard now >= until else { throw refuse(.unspecified) }
            lockedOutUntil = nil
        }
        var user: UInt16?
        var credential: UInt16?
        if let pin {
            guard let match = table.pin(matching: pin) else {
                wrongCodeEntered()
                throw refuse(.invalidCredential)
            }
            guard table.users[match.credential.user]?.isEnabled == true else {
                throw refuse(.disabledUserDenied, user: match.credential.user, credential: match.index)
            }
            wrongCodeEntries = 0
            user = match.credential.user
            credential = match.index
        } else if requirePINForRemoteOperation {
            wrongCodeEntered()
            throw refuse(.invalidCredential)
        }
        setLockState(locking ? .locked : .unlocked)
        recordOperation(
            .DoorLock.lockOperation, operation: operation, error: nil, user: user, credential: credential,
            context: context)
        if !locking, autoRelockTime > 0 { relockTimer.start(after: UInt64(autoRelockTime) * 1000) }
    }

    /// Counts a wrong PIN; the WrongCodeEntryLimit-th locks remote operation out for
    /// UserCodeTemporaryDisableTime seconds, with a DoorLockAlarm (WrongCodeEntryLimit).
    private func wrongCodeEntered() {
        wrongCodeEntries += 1
        guard wrongCodeEntries >= Int(wrongCodeEntryLimit) else { return }
        wrongCodeEntries = 0
        lockedOutUntil = now + UInt64(userCodeTemporaryDisableTime) * 1000
        note(
            "door-lock \(endpointID.rawValue): \(wrongCodeEntryLimit) wrong codes, locked out for "
                + "\(userCodeTemporaryDisableTime) s")
        recordEvent(
            .DoorLock.doorLockAlarm, priority: .critical,
            fields: .structure([TLVElement(tag: .context(0), .unsigned(Self.wrongCodeEntryLimitAlarm))]))
    }

    /// AutoRelockTime ran out after an unlock: the lock locks itself (source Auto).
    private func autoRelock() {
        guard lockState != .locked else { return }
        setLockState(.locked)
        recordEvent(
            .DoorLock.lockOperation, priority: .critical,
            fields: .structure([
                TLVElement(tag: .context(0), .unsigned(0)),
                TLVElement(tag: .context(1), .unsigned(Source.auto.rawValue)),
                TLVElement(tag: .context(2), .null),
                TLVElement(tag: .context(3), .null),
                TLVElement(tag: .context(4), .null),
            ]))
    }

    /// A LockOperation (`error` nil) or LockOperationError event of a remote operation.
    private func recordOperation(
        _ event: EventID, operation: UInt64, error: OperationError?, user: UInt16?, credential: UInt16?,
        context: InteractionContext
    ) {
        var fields = [
            TLVElement(tag: .context(0), .unsigned(operation)),
            TLVElement(tag: .context(1), .unsigned(Source.remote.rawValue)),
        ]
        if let error { fields.append(TLVElement(tag: .context(2), .unsigned(error.rawValue))) }
        let base: UInt8 = error == nil ? 2 : 3
        fields += [
            TLVElement(tag: .context(base), user.map { .unsigned(UInt64($0)) } ?? .null),
            TLVElement(tag: .context(base + 1), Self.fabric(context)),
            TLVElement(tag: .context(base + 2), Self.node(context)),
            TLVElement(tag: .context(base + 3), credential.map { .array([Self.credentialElement($0)]) } ?? .null),
        ]
        recordEvent(event, priority: .critical, fields: .structure(fields))
    }

    /// The accessing fabric, or null.
    static func fabric(_ context: InteractionContext) -> TLVValue {
        context.subject.hasFabric ? .unsigned(UInt64(context.subject.fabricIndex)) : .null
    }

    /// The accessing node (CASE), or null.
    static func node(_ context: InteractionContext) -> TLVValue {
        context.subject.authMode == .case ? .unsigned(context.subject.subject) : .null
    }

    /// A CredentialStruct of a PIN credential.
    static func credentialElement(_ index: UInt16) -> TLVElement {
        TLVElement(
            .structure([
                TLVElement(tag: .context(0), .unsigned(DoorLockServer.pinCredentialType)),
                TLVElement(tag: .context(1), .unsigned(UInt64(index))),
            ]))
    }

    /// CredentialTypeEnum PIN.
    static let pinCredentialType: UInt64 = 1

    /// LockState changes as the bolt reports it (a hand on the thumb-turn, a jam); other
    /// attributes as written.
    override package func setLocally(_ attribute: AttributeID, _ value: TLVValue) throws(StatusIB) {
        guard attribute == .DoorLock.lockState else { return try super.setLocally(attribute, value) }
        switch value {
        case .null: setLockState(nil)
        case .unsigned(let raw):
            guard let byte = UInt8(exactly: raw), let state = LockState(rawValue: byte) else {
                throw StatusIB(.constraintError)
            }
            setLockState(state)
        default: throw StatusIB(.constraintError)
        }
    }

    /// Sets LockState (a local operation, or the result of a command).
    package func setLockState(_ state: LockState?) {
        if state == .locked { relockTimer.cancel() }
        guard state != lockState else { return }
        lockState = state
        persist(.DoorLock.lockState, state.map { .unsigned(UInt64($0.rawValue)) } ?? .null)
        attributeChanged(.DoorLock.lockState)
    }

    override package func changeDescription(of attribute: AttributeID, value: TLVValue) -> String? {
        guard attribute == .DoorLock.lockState else { return super.changeDescription(of: attribute, value: value) }
        let text =
            switch lockState {
            case .locked?: "locked"
            case .unlocked?: "unlocked"
            case .notFullyLocked?: "not fully locked"
            case .unlatched?: "unlatched"
            case nil: "unknown"
            }
        return "door-lock \(endpointID.rawValue) → \(text)"
    }
}
