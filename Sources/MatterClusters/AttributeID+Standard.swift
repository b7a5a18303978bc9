public import MatterCore

/// Global attributes (present on every cluster) and, in one namespace per cluster, the attribute IDs
/// of the clusters this project knows: `AttributeID.OnOff.onOff`, `AttributeID.featureMap`.
extension AttributeID {
    /// GeneratedCommandList (0xFFF8): response commands the server sends.
    public static let generatedCommandList = AttributeID(0xFFF8)
    /// AcceptedCommandList (0xFFF9): commands the server accepts.
    public static let acceptedCommandList = AttributeID(0xFFF9)
    /// EventList (0xFFFA): removed in Matter 1.3; never served.
    public static let eventList = AttributeID(0xFFFA)
    /// AttributeList (0xFFFB): every implemented attribute, the globals included.
    public static let attributeList = AttributeID(0xFFFB)
    /// FeatureMap (0xFFFC).
    public static let featureMap = AttributeID(0xFFFC)
    /// ClusterRevision (0xFFFD).
    public static let clusterRevision = AttributeID(0xFFFD)

    /// True for the global attribute range 0xF000...0xFFFE.
    public var isGlobal: Bool { rawValue >= 0xF000 && rawValue <= 0xFFFE }

    public enum Identify {
        public static let identifyTime = AttributeID(0x0000)
        public static let identifyType = AttributeID(0x0001)
    }

    public enum Groups {
        public static let nameSupport = AttributeID(0x0000)
    }

    public enum ScenesManagement {
        public static let sceneTableSize = AttributeID(0x0001)
        public static let fabricSceneInfo = AttributeID(0x0002)
    }

    public enum OnOff {
        public static let onOff = AttributeID(0x0000)
        public static let globalSceneControl = AttributeID(0x4000)
        public static let onTime = AttributeID(0x4001)
        public static let offWaitTime = AttributeID(0x4002)
        public static let startUpOnOff = AttributeID(0x4003)
    }

    public enum LevelControl {
        public static let currentLevel = AttributeID(0x0000)
        public static let remainingTime = AttributeID(0x0001)
        public static let minLevel = AttributeID(0x0002)
        public static let maxLevel = AttributeID(0x0003)
        public static let options = AttributeID(0x000F)
        public static let onOffTransitionTime = AttributeID(0x0010)
        public static let onLevel = AttributeID(0x0011)
        public static let onTransitionTime = AttributeID(0x0012)
        public static let offTransitionTime = AttributeID(0x0013)
        public static let defaultMoveRate = AttributeID(0x0014)
        public static let startUpCurrentLevel = AttributeID(0x4000)
    }

    public enum Descriptor {
        public static let deviceTypeList = AttributeID(0x0000)
        public static let serverList = AttributeID(0x0001)
        public static let clientList = AttributeID(0x0002)
        public static let partsList = AttributeID(0x0003)
        public static let tagList = AttributeID(0x0004)
    }

    public enum AccessControl {
        public static let acl = AttributeID(0x0000)
        public static let `extension` = AttributeID(0x0001)
        public static let subjectsPerAccessControlEntry = AttributeID(0x0002)
        public static let targetsPerAccessControlEntry = AttributeID(0x0003)
        public static let accessControlEntriesPerFabric = AttributeID(0x0004)
    }

    public enum BasicInformation {
        public static let dataModelRevision = AttributeID(0x0000)
        public static let vendorName = AttributeID(0x0001)
        public static let vendorID = AttributeID(0x0002)
        public static let productName = AttributeID(0x0003)
        public static let productID = AttributeID(0x0004)
        public static let nodeLabel = AttributeID(0x0005)
        public static let location = AttributeID(0x0006)
        public static let hardwareVersion = AttributeID(0x0007)
        public static let hardwareVersionString = AttributeID(0x0008)
        public static let softwareVersion = AttributeID(0x0009)
        public static let softwareVersionString = AttributeID(0x000A)
        public static let manufacturingDate = AttributeID(0x000B)
        public static let partNumber = AttributeID(0x000C)
        public static let productURL = AttributeID(0x000D)
        public static let productLabel = AttributeID(0x000E)
        public static let serialNumber = AttributeID(0x000F)
        public static let localConfigDisabled = AttributeID(0x0010)
        public static let reachable = AttributeID(0x0011)
        public static let uniqueID = AttributeID(0x0012)
        public static let capabilityMinima = AttributeID(0x0013)
        public static let productAppearance = AttributeID(0x0014)
        public static let specificationVersion = AttributeID(0x0015)
        public static let maxPathsPerInvoke = AttributeID(0x0016)
        public static let configurationVersion = AttributeID(0x0018)
    }

    public enum GeneralCommissioning {
        public static let breadcrumb = AttributeID(0x0000)
        public static let basicCommissioningInfo = AttributeID(0x0001)
        public static let regulatoryConfig = AttributeID(0x0002)
        public static let locationCapability = AttributeID(0x0003)
        public static let supportsConcurrentConnection = AttributeID(0x0004)
    }

    public enum NetworkCommissioning {
        public static let maxNetworks = AttributeID(0x0000)
        public static let networks = AttributeID(0x0001)
        public static let scanMaxTimeSeconds = AttributeID(0x0002)
        public static let connectMaxTimeSeconds = AttributeID(0x0003)
        public static let interfaceEnabled = AttributeID(0x0004)
        public static let lastNetworkingStatus = AttributeID(0x0005)
        public static let lastNetworkID = AttributeID(0x0006)
        public static let lastConnectErrorValue = AttributeID(0x0007)
    }

    public enum GeneralDiagnostics {
        public static let networkInterfaces = AttributeID(0x0000)
        public static let rebootCount = AttributeID(0x0001)
        public static let upTime = AttributeID(0x0002)
        public static let bootReason = AttributeID(0x0004)
        public static let activeHardwareFaults = AttributeID(0x0005)
        public static let testEventTriggersEnabled = AttributeID(0x0008)
    }

    public enum AdministratorCommissioning {
        public static let windowStatus = AttributeID(0x0000)
        public static let adminFabricIndex = AttributeID(0x0001)
        public static let adminVendorID = AttributeID(0x0002)
    }

    public enum OperationalCredentials {
        public static let nocs = AttributeID(0x0000)
        public static let fabrics = AttributeID(0x0001)
        public static let supportedFabrics = AttributeID(0x0002)
        public static let commissionedFabrics = AttributeID(0x0003)
        public static let trustedRootCertificates = AttributeID(0x0004)
        public static let currentFabricIndex = AttributeID(0x0005)
    }

    public enum GroupKeyManagement {
        public static let groupKeyMap = AttributeID(0x0000)
        public static let groupTable = AttributeID(0x0001)
        public static let maxGroupsPerFabric = AttributeID(0x0002)
        public static let maxGroupKeysPerFabric = AttributeID(0x0003)
    }

    public enum DoorLock {
        public static let lockState = AttributeID(0x0000)
        public static let lockType = AttributeID(0x0001)
        public static let actuatorEnabled = AttributeID(0x0002)
        public static let numberOfTotalUsersSupported = AttributeID(0x0011)
        public static let numberOfPINUsersSupported = AttributeID(0x0012)
        public static let numberOfWeekDaySchedulesSupportedPerUser = AttributeID(0x0014)
        public static let numberOfYearDaySchedulesSupportedPerUser = AttributeID(0x0015)
        public static let maxPINCodeLength = AttributeID(0x0017)
        public static let minPINCodeLength = AttributeID(0x0018)
        public static let credentialRulesSupport = AttributeID(0x001B)
        public static let numberOfCredentialsSupportedPerUser = AttributeID(0x001C)
        public static let autoRelockTime = AttributeID(0x0023)
        public static let operatingMode = AttributeID(0x0025)
        public static let supportedOperatingModes = AttributeID(0x0026)
        public static let wrongCodeEntryLimit = AttributeID(0x0030)
        public static let userCodeTemporaryDisableTime = AttributeID(0x0031)
        public static let sendPINOverTheAir = AttributeID(0x0032)
        public static let requirePINforRemoteOperation = AttributeID(0x0033)
    }

    public enum ColorControl {
        public static let remainingTime = AttributeID(0x0002)
        public static let currentX = AttributeID(0x0003)
        public static let currentY = AttributeID(0x0004)
        public static let colorTemperatureMireds = AttributeID(0x0007)
        public static let colorMode = AttributeID(0x0008)
        public static let options = AttributeID(0x000F)
        public static let numberOfPrimaries = AttributeID(0x0010)
        public static let enhancedColorMode = AttributeID(0x4001)
        public static let colorCapabilities = AttributeID(0x400A)
        public static let colorTempPhysicalMinMireds = AttributeID(0x400B)
        public static let colorTempPhysicalMaxMireds = AttributeID(0x400C)
        public static let coupleColorTempToLevelMinMireds = AttributeID(0x400D)
        public static let startUpColorTemperatureMireds = AttributeID(0x4010)
    }
}
