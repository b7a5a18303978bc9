import MatterCore

extension ClusterSchema {
    /// Door Lock 0x0101 (rev 9; rev 9, Matter 1.5, removed the AlarmMask attribute, which this schema never
    /// had): lock state, the timed Lock/Unlock commands with a PIN, users and PIN
    /// credentials (USR, PIN, COTA), week-day and year-day schedules (WDSCH, YDSCH), the wrong-code
    /// lock-out, auto-relock, and the lock's events.
    public static let doorLock = ClusterSchema(
        .doorLock, "DoorLock", revision: 9,
        features: [
            Feature(0, "PIN", "PinCredential"), Feature(1, "RID", "RfidCredential"),
            Feature(2, "FGP", "FingerCredentials"), Feature(4, "WDSCH", "WeekDayAccessSchedules"),
            Feature(5, "DPS", "DoorPositionSensor"), Feature(7, "COTA", "CredentialOverTheAirAccess"),
            Feature(8, "USR", "User"), Feature(10, "YDSCH", "YearDayAccessSchedules"),
        ],
        attributes: [
            AttributeSchema(.DoorLock.lockState, "LockState", .enum8, nullable: true),
            AttributeSchema(.DoorLock.lockType, "LockType", .enum8),
            AttributeSchema(.DoorLock.actuatorEnabled, "ActuatorEnabled", .boolean),
            AttributeSchema(
                .DoorLock.numberOfTotalUsersSupported, "NumberOfTotalUsersSupported", .uint16, optional: true),
            AttributeSchema(.DoorLock.numberOfPINUsersSupported, "NumberOfPINUsersSupported", .uint16, optional: true),
            AttributeSchema(
                .DoorLock.numberOfWeekDaySchedulesSupportedPerUser, "NumberOfWeekDaySchedulesSupportedPerUser",
                .uint8, optional: true),
            AttributeSchema(
                .DoorLock.numberOfYearDaySchedulesSupportedPerUser, "NumberOfYearDaySchedulesSupportedPerUser",
                .uint8, optional: true),
            AttributeSchema(.DoorLock.maxPINCodeLength, "MaxPINCodeLength", .uint8, optional: true),
            AttributeSchema(.DoorLock.minPINCodeLength, "MinPINCodeLength", .uint8, optional: true),
            AttributeSchema(.DoorLock.credentialRulesSupport, "CredentialRulesSupport", .map8, optional: true),
            AttributeSchema(
                .DoorLock.numberOfCredentialsSupportedPerUser, "NumberOfCredentialsSupportedPerUser", .uint8,
                optional: true),
            AttributeSchema(.DoorLock.autoRelockTime, "AutoRelockTime", .uint32, write: .manage, optional: true),
            AttributeSchema(.DoorLock.operatingMode, "OperatingMode", .enum8, write: .manage),
            AttributeSchema(.DoorLock.supportedOperatingModes, "SupportedOperatingModes", .map16),
            AttributeSchema(
                .DoorLock.wrongCodeEntryLimit, "WrongCodeEntryLimit", .uint8, write: .administer,
                optional: true),
            AttributeSchema(
                .DoorLock.userCodeTemporaryDisableTime, "UserCodeTemporaryDisableTime", .uint8,
                write: .administer, optional: true),
            AttributeSchema(
                .DoorLock.sendPINOverTheAir, "SendPINOverTheAir", .boolean, write: .administer, optional: true),
            AttributeSchema(
                .DoorLock.requirePINforRemoteOperation, "RequirePINforRemoteOperation", .boolean,
                write: .administer, optional: true),
        ],
        commands: [
            CommandSchema(
                .DoorLock.lockDoor, "LockDoor", [FieldSchema(0, "PINCode", .bytes, optional: true)],
                timed: true),
            CommandSchema(
                .DoorLock.unlockDoor, "UnlockDoor", [FieldSchema(0, "PINCode", .bytes, optional: true)],
                timed: true),
            CommandSchema(
                .DoorLock.setWeekDaySchedule, "SetWeekDaySchedule",
                [
                    FieldSchema(0, "WeekDayIndex", .uint8), FieldSchema(1, "UserIndex", .uint16),
                    FieldSchema(2, "DaysMask", .map8), FieldSchema(3, "StartHour", .uint8),
                    FieldSchema(4, "StartMinute", .uint8), FieldSchema(5, "EndHour", .uint8),
                    FieldSchema(6, "EndMinute", .uint8),
                ], privilege: .administer),
            CommandSchema(
                .DoorLock.getWeekDaySchedule, "GetWeekDaySchedule",
                [FieldSchema(0, "WeekDayIndex", .uint8), FieldSchema(1, "UserIndex", .uint16)],
                response: .command(.DoorLock.getWeekDayScheduleResponse), privilege: .administer),
            CommandSchema(
                .DoorLock.clearWeekDaySchedule, "ClearWeekDaySchedule",
                [FieldSchema(0, "WeekDayIndex", .uint8), FieldSchema(1, "UserIndex", .uint16)],
                privilege: .administer),
            CommandSchema(
                .DoorLock.setYearDaySchedule, "SetYearDaySchedule",
                [
                    FieldSchema(0, "YearDayIndex", .uint8), FieldSchema(1, "UserIndex", .uint16),
                    FieldSchema(2, "LocalStartTime", .uint32), FieldSchema(3, "LocalEndTime", .uint32),
                ], privilege: .administer),
            CommandSchema(
                .DoorLock.getYearDaySchedule, "GetYearDaySchedule",
                [FieldSchema(0, "YearDayIndex", .uint8), FieldSchema(1, "UserIndex", .uint16)],
                response: .command(.DoorLock.getYearDayScheduleResponse), privilege: .administer),
            CommandSchema(
                .DoorLock.clearYearDaySchedule, "ClearYearDaySchedule",
                [FieldSchema(0, "YearDayIndex", .uint8), FieldSchema(1, "UserIndex", .uint16)],
                privilege: .administer),
            CommandSchema(
                .DoorLock.setUser, "SetUser",
                [
                    FieldSchema(0, "OperationType", .enum8), FieldSchema(1, "UserIndex", .uint16),
                    FieldSchema(2, "UserName", .string(maxLength: 10), nullable: true),
                    FieldSchema(3, "UserUniqueID", .uint32, nullable: true),
                    FieldSchema(4, "UserStatus", .enum8, nullable: true),
                    FieldSchema(5, "UserType", .enum8, nullable: true),
                    FieldSchema(6, "CredentialRule", .enum8, nullable: true),
                ], privilege: .administer, timed: true),
            CommandSchema(
                .DoorLock.getUser, "GetUser", [FieldSchema(0, "UserIndex", .uint16)],
                response: .command(.DoorLock.getUserResponse), privilege: .administer),
            CommandSchema(
                .DoorLock.clearUser, "ClearUser", [FieldSchema(0, "UserIndex", .uint16)], privilege: .administer,
                timed: true),
            CommandSchema(
                .DoorLock.setCredential, "SetCredential",
                [
                    FieldSchema(0, "OperationType", .enum8),
                    FieldSchema(1, "Credential", .structure(credentialStruct)),
                    FieldSchema(2, "CredentialData", .bytes),
                    FieldSchema(3, "UserIndex", .uint16, nullable: true),
                    FieldSchema(4, "UserStatus", .enum8, nullable: true),
                    FieldSchema(5, "UserType", .enum8, nullable: true),
                ], response: .command(.DoorLock.setCredentialResponse), privilege: .administer, timed: true),
            CommandSchema(
                .DoorLock.getCredentialStatus, "GetCredentialStatus",
                [FieldSchema(0, "Credential", .structure(credentialStruct))],
                response: .command(.DoorLock.getCredentialStatusResponse), privilege: .administer),
            CommandSchema(
                .DoorLock.clearCredential, "ClearCredential",
                [FieldSchema(0, "Credential", .structure(credentialStruct), nullable: true)],
                privilege: .administer, timed: true),
        ],
        responses: [
            CommandSchema(
                .DoorLock.getWeekDayScheduleResponse, "GetWeekDayScheduleResponse",
                [
                    FieldSchema(0, "WeekDayIndex", .uint8), FieldSchema(1, "UserIndex", .uint16),
                    FieldSchema(2, "Status", .enum8), FieldSchema(3, "DaysMask", .map8, optional: true),
                    FieldSchema(4, "StartHour", .uint8, optional: true),
                    FieldSchema(5, "StartMinute", .uint8, optional: true),
                    FieldSchema(6, "EndHour", .uint8, optional: true),
                    FieldSchema(7, "EndMinute", .uint8, optional: true),
                ]),
            CommandSchema(
                .DoorLock.getYearDayScheduleResponse, "GetYearDayScheduleResponse",
                [
                    FieldSchema(0, "YearDayIndex", .uint8), FieldSchema(1, "UserIndex", .uint16),
                    FieldSchema(2, "Status", .enum8), FieldSchema(3, "LocalStartTime", .uint32, optional: true),
                    FieldSchema(4, "LocalEndTime", .uint32, optional: true),
                ]),
            CommandSchema(
                .DoorLock.getUserResponse, "GetUserResponse",
                [
                    FieldSchema(0, "UserIndex", .uint16),
                    FieldSchema(1, "UserName", .string(maxLength: 10), nullable: true),
                    FieldSchema(2, "UserUniqueID", .uint32, nullable: true),
                    FieldSchema(3, "UserStatus", .enum8, nullable: true),
                    FieldSchema(4, "UserType", .enum8, nullable: true),
                    FieldSchema(5, "CredentialRule", .enum8, nullable: true),
                    FieldSchema(6, "Credentials", .list(.structure(credentialStruct)), nullable: true),
                    FieldSchema(7, "CreatorFabricIndex", .uint8, nullable: true),
                    FieldSchema(8, "LastModifiedFabricIndex", .uint8, nullable: true),
                    FieldSchema(9, "NextUserIndex", .uint16, nullable: true),
                ]),
            CommandSchema(
                .DoorLock.setCredentialResponse, "SetCredentialResponse",
                [
                    FieldSchema(0, "Status", .enum8), FieldSchema(1, "UserIndex", .uint16, nullable: true),
                    FieldSchema(2, "NextCredentialIndex", .uint16, nullable: true),
                ]),
            CommandSchema(
                .DoorLock.getCredentialStatusResponse, "GetCredentialStatusResponse",
                [
                    FieldSchema(0, "CredentialExists", .boolean), FieldSchema(1, "UserIndex", .uint16, nullable: true),
                    FieldSchema(2, "CreatorFabricIndex", .uint8, nullable: true),
                    FieldSchema(3, "LastModifiedFabricIndex", .uint8, nullable: true),
                    FieldSchema(4, "NextCredentialIndex", .uint16, nullable: true),
                ]),
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
                    FieldSchema(5, "Credentials", .list(.structure(credentialStruct)), optional: true, nullable: true),
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
                    FieldSchema(6, "Credentials", .list(.structure(credentialStruct)), optional: true, nullable: true),
                ]),
            EventSchema(
                .DoorLock.lockUserChange, "LockUserChange", .info,
                [
                    FieldSchema(0, "LockDataType", .enum8),
                    FieldSchema(1, "DataOperationType", .enum8),
                    FieldSchema(2, "OperationSource", .enum8),
                    FieldSchema(3, "UserIndex", .uint16, nullable: true),
                    FieldSchema(4, "FabricIndex", .uint8, nullable: true),
                    FieldSchema(5, "SourceNode", .uint64, nullable: true),
                    FieldSchema(6, "DataIndex", .uint16, nullable: true),
                ]),
        ])

    /// CredentialStruct: CredentialType (CredentialTypeEnum) and CredentialIndex.
    public static let credentialStruct = StructSchema(
        "CredentialStruct", [FieldSchema(0, "CredentialType", .enum8), FieldSchema(1, "CredentialIndex", .uint16)])
}
