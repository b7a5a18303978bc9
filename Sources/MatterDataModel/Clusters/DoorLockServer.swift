import MatterClusters
public import MatterCore
public import MatterInteraction
public import MatterTLV

/// Door Lock 0x0101 (rev 8), the minimal subset: LockState, LockType, ActuatorEnabled, OperatingMode
/// (writable with Manage; only supported modes), SupportedOperatingModes, WrongCodeEntryLimit
/// (writable with Administer, 1...255), the timed LockDoor/UnlockDoor without PIN, and the
/// LockOperation / LockOperationError events. Lock state and settings are persisted.
public final class DoorLockServer: ClusterServer, @unchecked Sendable {
    /// LockStateEnum.
    public enum LockState: UInt8, Sendable {
        case notFullyLocked = 0
        case locked = 1
        case unlocked = 2
        case unlatched = 3
    }

    /// OperatingModeEnum.
    public enum OperatingMode: UInt8, Sendable {
        case normal = 0
        case vacation = 1
        case privacy = 2
        case noRemoteLockUnlock = 3
        case passage = 4
    }

    /// Construction parameters.
    public struct Configuration: Hashable, Sendable {
        /// LockType (LockTypeEnum; 0 dead bolt).
        public var lockType: UInt8 = 0
        /// LockState before anything is persisted.
        public var initialState: LockState = .locked
        /// SupportedOperatingModes, inverted bitmap (bit = 0: supported). Default: Normal and
        /// NoRemoteLockUnlock.
        public var supportedOperatingModes: UInt16 = 0xFFF6
        /// WrongCodeEntryLimit before a controller writes one.
        public var wrongCodeEntryLimit: UInt8 = 5

        public init() {}
    }

    /// OperationSourceEnum Remote.
    static let remoteSource: UInt64 = 7
    /// OperationErrorEnum Restricted.
    static let restrictedError: UInt64 = 3

    public let configuration: Configuration
    /// LockState (nil: unknown).
    public private(set) var lockState: LockState?
    /// OperatingMode.
    public private(set) var operatingMode: OperatingMode = .normal
    /// WrongCodeEntryLimit.
    public private(set) var wrongCodeEntryLimit: UInt8

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.lockState = configuration.initialState
        self.wrongCodeEntryLimit = configuration.wrongCodeEntryLimit
        super.init(id: .doorLock, revision: ClusterSchema.doorLock.revision)
    }

    override public var attributes: [AttributeInfo] {
        typealias A = AttributeID.DoorLock
        return Self.attributeInfos(
            .doorLock,
            [
                A.lockState, A.lockType, A.actuatorEnabled, A.operatingMode, A.supportedOperatingModes,
                A.wrongCodeEntryLimit,
            ])
    }

    override public var acceptedCommands: [CommandInfo] {
        Self.commandInfos(.doorLock, [.DoorLock.lockDoor, .DoorLock.unlockDoor])
    }

    override public var events: [EventInfo] { ClusterSchema.doorLock.events.map(EventInfo.init) }

    override public func start() {
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
        if case .unsigned(let raw)? = loadPersisted(A.wrongCodeEntryLimit), let limit = UInt8(exactly: raw), limit > 0 {
            wrongCodeEntryLimit = limit
        }
    }

    /// True when SupportedOperatingModes (inverted) lists `mode`.
    public func isSupported(_ mode: OperatingMode) -> Bool {
        configuration.supportedOperatingModes & (1 << UInt16(mode.rawValue)) == 0
    }

    override public func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        typealias A = AttributeID.DoorLock
        switch attribute {
        case A.lockState: return lockState.map { .unsigned(UInt64($0.rawValue)) } ?? .null
        case A.lockType: return .unsigned(UInt64(configuration.lockType))
        case A.actuatorEnabled: return .bool(true)
        case A.operatingMode: return .unsigned(UInt64(operatingMode.rawValue))
        case A.supportedOperatingModes: return .unsigned(UInt64(configuration.supportedOperatingModes))
        case A.wrongCodeEntryLimit: return .unsigned(UInt64(wrongCodeEntryLimit))
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    override public func write(_ attribute: AttributeID, _ write: AttributeWrite, context: InteractionContext)
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
        default:
            throw StatusIB(.unsupportedWrite)
        }
        attributeChanged(attribute)
    }

    override public func invoke(_ command: CommandID, fields: CommandFields, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        let locking: Bool
        switch command {
        case .DoorLock.lockDoor: locking = true
        case .DoorLock.unlockDoor: locking = false
        default: throw StatusIB(.unsupportedCommand)
        }
        // No PIN feature: a PINCode, if sent, must be an octet string and is otherwise ignored.
        _ = try fields.optionalOctets(0)
        let subject = context.subject
        let fabric: TLVValue = subject.hasFabric ? .unsigned(UInt64(subject.fabricIndex)) : .null
        let node: TLVValue = subject.authMode == .case ? .unsigned(subject.subject) : .null
        let operation: UInt64 = locking ? 0 : 1
        guard operatingMode != .noRemoteLockUnlock else {
            recordEvent(
                .DoorLock.lockOperationError, priority: .critical,
                fields: .structure([
                    TLVElement(tag: .context(0), .unsigned(operation)),
                    TLVElement(tag: .context(1), .unsigned(Self.remoteSource)),
                    TLVElement(tag: .context(2), .unsigned(Self.restrictedError)),
                    TLVElement(tag: .context(3), .null),
                    TLVElement(tag: .context(4), fabric),
                    TLVElement(tag: .context(5), node),
                ]))
            throw StatusIB(.failure)
        }
        setLockState(locking ? .locked : .unlocked)
        recordEvent(
            .DoorLock.lockOperation, priority: .critical,
            fields: .structure([
                TLVElement(tag: .context(0), .unsigned(operation)),
                TLVElement(tag: .context(1), .unsigned(Self.remoteSource)),
                TLVElement(tag: .context(2), .null),
                TLVElement(tag: .context(3), fabric),
                TLVElement(tag: .context(4), node),
            ]))
        return nil
    }

    /// Sets LockState (a local operation, or the result of a command).
    public func setLockState(_ state: LockState?) {
        guard state != lockState else { return }
        lockState = state
        persist(.DoorLock.lockState, state.map { .unsigned(UInt64($0.rawValue)) } ?? .null)
        attributeChanged(.DoorLock.lockState)
    }

    override public func changeDescription(of attribute: AttributeID, value: TLVValue) -> String? {
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
