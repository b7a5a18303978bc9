public import MatterClusters
import MatterCore
import MatterTLV

extension Matter {
    /// The DoorLock cluster (0x0101).
    public struct DoorLockTrait: Trait {
        public static let clusterID: UInt32 = 0x0101
        public let part: DevicePart
        private static let cluster = ClusterID.doorLock

        public init(part: DevicePart) { self.part = part }

        /// The commands of the trait, for ``supports(_:)``.
        public enum Command: Sendable, Hashable, CaseIterable {
            case lockDoor, unlockDoor

            var id: CommandID {
                switch self {
                case .lockDoor: .DoorLock.lockDoor
                case .unlockDoor: .DoorLock.unlockDoor
                }
            }
        }

        /// LockState's values.
        public typealias DlLockState = Clusters.DoorLock.LockStateEnum

        /// The trait's attributes, with their live values.
        public struct Attributes: Sendable {
            /// Nullable: null while the lock does not know its state.
            @TraitAttribute<DlLockState> public var lockState: DlLockState?
            @TraitAttribute<UInt8> public var lockType: UInt8?
            @TraitAttribute<Bool> public var actuatorEnabled: Bool?
            @TraitAttribute<UInt8> public var operatingMode: UInt8?
            @TraitAttribute<UInt8> public var wrongCodeEntryLimit: UInt8?

            init(_ part: DevicePart) {
                let c = DoorLockTrait.cluster
                typealias A = AttributeID.DoorLock
                _lockState = TraitAttribute(part, c, A.lockState, merge: .dynamic, decode: Decode.raw)
                _lockType = TraitAttribute(part, c, A.lockType, merge: .common, decode: Decode.unsigned)
                _actuatorEnabled = TraitAttribute(part, c, A.actuatorEnabled, merge: .dynamic, decode: Decode.bool)
                _operatingMode = TraitAttribute(part, c, A.operatingMode, merge: .dynamic, decode: Decode.unsigned)
                _wrongCodeEntryLimit = TraitAttribute(
                    part, c, A.wrongCodeEntryLimit, merge: .common, decode: Decode.unsigned)
            }
        }

        /// The attributes' live values.
        public var attributes: Attributes { Attributes(part) }

        /// True when the device (for a group part: any member) accepts `command`.
        public func supports(_ command: Command) -> Bool { part.supports(Self.cluster, command.id) }
        public var supportsLockDoorCommand: Bool { supports(.lockDoor) }
        public var supportsUnlockDoorCommand: Bool { supports(.unlockDoor) }

        /// LockDoor (a timed invoke), with the PIN when the lock requires one.
        public func lockDoor(pinCode: [UInt8]? = nil) async throws(HomeError) {
            try await part.invoke(
                Self.cluster, .DoorLock.lockDoor, fields: pinCode.map { [.field(0, .bytes($0))] } ?? [], timed: true)
        }

        /// UnlockDoor (a timed invoke), with the PIN when the lock requires one.
        public func unlockDoor(pinCode: [UInt8]? = nil) async throws(HomeError) {
            try await part.invoke(
                Self.cluster, .DoorLock.unlockDoor, fields: pinCode.map { [.field(0, .bytes($0))] } ?? [], timed: true)
        }

        /// The optional fields of LockDoor and UnlockDoor, set in the closure form of the commands.
        public struct PinCodeOptions: Sendable {
            var pinCode: [UInt8]?

            /// The PIN, when the lock requires one (RequirePINforRemoteOperation).
            public mutating func setPinCode(_ code: [UInt8]) { pinCode = code }
        }

        /// LockDoor with its optional fields set by `options` (the Home API's form:
        /// `lockDoor { $0.setPinCode(Array("1234".utf8)) }`).
        public func lockDoor(_ options: (inout PinCodeOptions) -> Void) async throws(HomeError) {
            var fields = PinCodeOptions()
            options(&fields)
            try await lockDoor(pinCode: fields.pinCode)
        }

        /// UnlockDoor with its optional fields set by `options`.
        public func unlockDoor(_ options: (inout PinCodeOptions) -> Void) async throws(HomeError) {
            var fields = PinCodeOptions()
            options(&fields)
            try await unlockDoor(pinCode: fields.pinCode)
        }

        /// The writable attributes, set in ``update(_:)``.
        public struct Mutator: Sendable {
            var writes: [(AttributeID, TLVValue)] = []

            public mutating func setWrongCodeEntryLimit(_ value: UInt8) {
                writes.append((AttributeID.DoorLock.wrongCodeEntryLimit, .unsigned(UInt64(value))))
            }
            public mutating func setOperatingMode(_ value: UInt8) {
                writes.append((AttributeID.DoorLock.operatingMode, .unsigned(UInt64(value))))
            }
        }

        /// Writes the attributes `body` sets; returns the trait with the values read back.
        /// - Throws: `invalidArgument` for an attribute the lock does not have, or a group part.
        @discardableResult
        public func update(_ body: (inout Mutator) -> Void) async throws(HomeError) -> DoorLockTrait {
            var mutator = Mutator()
            body(&mutator)
            try await part.write(Self.cluster, mutator.writes)
            return self
        }
    }
}
