import MatterCore

extension ClusterSchema {
    /// Door Lock 0x0101 (rev 8), the minimal subset: lock state and the timed Lock/Unlock commands.
    public static let doorLock = ClusterSchema(
        .doorLock, "DoorLock", revision: 8,
        features: [
            Feature(0, "PIN", "PinCredential"), Feature(1, "RID", "RfidCredential"),
            Feature(2, "FGP", "FingerCredentials"), Feature(4, "WDSCH", "WeekDayAccessSchedules"),
            Feature(5, "DPS", "DoorPositionSensor"), Feature(8, "USR", "User"),
        ],
        attributes: [
            AttributeSchema(.DoorLock.lockState, "LockState", .enum8, nullable: true),
            AttributeSchema(.DoorLock.lockType, "LockType", .enum8),
            AttributeSchema(.DoorLock.actuatorEnabled, "ActuatorEnabled", .boolean),
            AttributeSchema(.DoorLock.operatingMode, "OperatingMode", .enum8, write: .manage),
            AttributeSchema(.DoorLock.supportedOperatingModes, "SupportedOperatingModes", .map16),
            AttributeSchema(
                .DoorLock.wrongCodeEntryLimit, "WrongCodeEntryLimit", .uint8, write: .administer,
                optional: true),
        ],
        commands: [
            CommandSchema(
                .DoorLock.lockDoor, "LockDoor", [FieldSchema(0, "PINCode", .bytes, optional: true)],
                timed: true),
            CommandSchema(
                .DoorLock.unlockDoor, "UnlockDoor", [FieldSchema(0, "PINCode", .bytes, optional: true)],
                timed: true),
        ],
        events: [
            EventSchema(.DoorLock.doorLockAlarm, "DoorLockAlarm", .critical, [FieldSchema(0, "AlarmCode", .enum8)]),
            EventSchema(
                .DoorLock.lockOperation, "LockOperation", .critical,
                [
                    FieldSchema(0, "LockOperationType", .enum8),
                    FieldSchema(1, "OperationSource", .enum8),
                    FieldSchema(2, "UserIndex", .uint16, nullable: true),
                    FieldSchema(3, "FabricIndex", .uint8, nullable: true),
                    FieldSchema(4, "SourceNode", .uint64, nullable: true),
                ]),
            EventSchema(
                .DoorLock.lockOperationError, "LockOperationError", .critical,
                [
                    FieldSchema(0, "LockOperationType", .enum8),
                    FieldSchema(1, "OperationSource", .enum8),
                    FieldSchema(2, "OperationError", .enum8),
                    FieldSchema(3, "UserIndex", .uint16, nullable: true),
                    FieldSchema(4, "FabricIndex", .uint8, nullable: true),
                    FieldSchema(5, "SourceNode", .uint64, nullable: true),
                ]),
        ])
}
