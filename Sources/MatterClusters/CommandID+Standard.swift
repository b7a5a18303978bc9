public import MatterCore

/// Command IDs, one namespace per cluster: `CommandID.OnOff.toggle`. Response commands (server to
/// client) share the namespace with the requests; their names end in `Response`.
extension CommandID {
    public enum Identify {
        public static let identify = CommandID(0x00)
        public static let triggerEffect = CommandID(0x40)
    }

    public enum Groups {
        public static let addGroup = CommandID(0x00)
        public static let viewGroup = CommandID(0x01)
        public static let getGroupMembership = CommandID(0x02)
        public static let removeGroup = CommandID(0x03)
        public static let removeAllGroups = CommandID(0x04)
        public static let addGroupIfIdentifying = CommandID(0x05)
        public static let addGroupResponse = CommandID(0x00)
        public static let viewGroupResponse = CommandID(0x01)
        public static let getGroupMembershipResponse = CommandID(0x02)
        public static let removeGroupResponse = CommandID(0x03)
    }

    public enum ScenesManagement {
        public static let addScene = CommandID(0x00)
        public static let viewScene = CommandID(0x01)
        public static let removeScene = CommandID(0x02)
        public static let removeAllScenes = CommandID(0x03)
        public static let storeScene = CommandID(0x04)
        public static let recallScene = CommandID(0x05)
        public static let getSceneMembership = CommandID(0x06)
        public static let copyScene = CommandID(0x40)
        public static let addSceneResponse = CommandID(0x00)
        public static let viewSceneResponse = CommandID(0x01)
        public static let removeSceneResponse = CommandID(0x02)
        public static let removeAllScenesResponse = CommandID(0x03)
        public static let storeSceneResponse = CommandID(0x04)
        public static let getSceneMembershipResponse = CommandID(0x06)
        public static let copySceneResponse = CommandID(0x40)
    }

    public enum OnOff {
        public static let off = CommandID(0x00)
        public static let on = CommandID(0x01)
        public static let toggle = CommandID(0x02)
        public static let offWithEffect = CommandID(0x40)
        public static let onWithRecallGlobalScene = CommandID(0x41)
        public static let onWithTimedOff = CommandID(0x42)
    }

    public enum LevelControl {
        public static let moveToLevel = CommandID(0x00)
        public static let move = CommandID(0x01)
        public static let step = CommandID(0x02)
        public static let stop = CommandID(0x03)
        public static let moveToLevelWithOnOff = CommandID(0x04)
        public static let moveWithOnOff = CommandID(0x05)
        public static let stepWithOnOff = CommandID(0x06)
        public static let stopWithOnOff = CommandID(0x07)
    }

    public enum GeneralCommissioning {
        public static let armFailSafe = CommandID(0x00)
        public static let armFailSafeResponse = CommandID(0x01)
        public static let setRegulatoryConfig = CommandID(0x02)
        public static let setRegulatoryConfigResponse = CommandID(0x03)
        public static let commissioningComplete = CommandID(0x04)
        public static let commissioningCompleteResponse = CommandID(0x05)
    }

    public enum GeneralDiagnostics {
        public static let testEventTrigger = CommandID(0x00)
        public static let timeSnapshot = CommandID(0x01)
        public static let timeSnapshotResponse = CommandID(0x02)
    }

    public enum AdministratorCommissioning {
        public static let openCommissioningWindow = CommandID(0x00)
        public static let openBasicCommissioningWindow = CommandID(0x01)
        public static let revokeCommissioning = CommandID(0x02)
    }

    public enum OperationalCredentials {
        public static let attestationRequest = CommandID(0x00)
        public static let attestationResponse = CommandID(0x01)
        public static let certificateChainRequest = CommandID(0x02)
        public static let certificateChainResponse = CommandID(0x03)
        public static let csrRequest = CommandID(0x04)
        public static let csrResponse = CommandID(0x05)
        public static let addNOC = CommandID(0x06)
        public static let updateNOC = CommandID(0x07)
        public static let nocResponse = CommandID(0x08)
        public static let updateFabricLabel = CommandID(0x09)
        public static let removeFabric = CommandID(0x0A)
        public static let addTrustedRootCertificate = CommandID(0x0B)
        public static let setVIDVerificationStatement = CommandID(0x0C)
        public static let signVIDVerificationRequest = CommandID(0x0D)
        public static let signVIDVerificationResponse = CommandID(0x0E)
    }

    public enum GroupKeyManagement {
        public static let keySetWrite = CommandID(0x00)
        public static let keySetRead = CommandID(0x01)
        public static let keySetReadResponse = CommandID(0x02)
        public static let keySetRemove = CommandID(0x03)
        public static let keySetReadAllIndices = CommandID(0x04)
        public static let keySetReadAllIndicesResponse = CommandID(0x05)
    }

    public enum DoorLock {
        public static let lockDoor = CommandID(0x00)
        public static let unlockDoor = CommandID(0x01)
        public static let setWeekDaySchedule = CommandID(0x0B)
        public static let getWeekDaySchedule = CommandID(0x0C)
        public static let getWeekDayScheduleResponse = CommandID(0x0C)
        public static let clearWeekDaySchedule = CommandID(0x0D)
        public static let setYearDaySchedule = CommandID(0x0E)
        public static let getYearDaySchedule = CommandID(0x0F)
        public static let getYearDayScheduleResponse = CommandID(0x0F)
        public static let clearYearDaySchedule = CommandID(0x10)
        public static let setUser = CommandID(0x1A)
        public static let getUser = CommandID(0x1B)
        public static let getUserResponse = CommandID(0x1C)
        public static let clearUser = CommandID(0x1D)
        public static let setCredential = CommandID(0x22)
        public static let setCredentialResponse = CommandID(0x23)
        public static let getCredentialStatus = CommandID(0x24)
        public static let getCredentialStatusResponse = CommandID(0x25)
        public static let clearCredential = CommandID(0x26)
    }

    public enum ColorControl {
        public static let moveToColor = CommandID(0x07)
        public static let moveToColorTemperature = CommandID(0x0A)
        public static let stopMoveStep = CommandID(0x47)
        public static let moveColor = CommandID(0x08)
        public static let stepColor = CommandID(0x09)
        public static let moveColorTemperature = CommandID(0x4B)
        public static let stepColorTemperature = CommandID(0x4C)
    }
}

/// Event IDs, one namespace per cluster.
extension EventID {
    public enum BasicInformation {
        public static let startUp = EventID(0x00)
        public static let shutDown = EventID(0x01)
        public static let leave = EventID(0x02)
    }

    public enum AccessControl {
        public static let accessControlEntryChanged = EventID(0x00)
    }

    public enum GeneralDiagnostics {
        public static let hardwareFaultChange = EventID(0x00)
        public static let bootReason = EventID(0x03)
    }

    public enum DoorLock {
        public static let doorLockAlarm = EventID(0x00)
        public static let lockOperation = EventID(0x02)
        public static let lockOperationError = EventID(0x03)
        public static let lockUserChange = EventID(0x04)
    }
}
