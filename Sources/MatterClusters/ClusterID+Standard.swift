public import MatterCore

/// IDs of the clusters this project knows (Matter 1.4 application and core specifications).
extension ClusterID {
    /// Identify (0x0003).
    public static let identify = ClusterID(0x0003)
    /// Groups (0x0004).
    public static let groups = ClusterID(0x0004)
    /// On/Off (0x0006).
    public static let onOff = ClusterID(0x0006)
    /// Level Control (0x0008).
    public static let levelControl = ClusterID(0x0008)
    /// Descriptor (0x001D).
    public static let descriptor = ClusterID(0x001D)
    /// Access Control (0x001F).
    public static let accessControl = ClusterID(0x001F)
    /// Basic Information (0x0028).
    public static let basicInformation = ClusterID(0x0028)
    /// General Commissioning (0x0030).
    public static let generalCommissioning = ClusterID(0x0030)
    /// Network Commissioning (0x0031).
    public static let networkCommissioning = ClusterID(0x0031)
    /// General Diagnostics (0x0033).
    public static let generalDiagnostics = ClusterID(0x0033)
    /// Ethernet Network Diagnostics (0x0037).
    public static let ethernetNetworkDiagnostics = ClusterID(0x0037)
    /// Time Synchronization (0x0038).
    public static let timeSynchronization = ClusterID(0x0038)
    /// Administrator Commissioning (0x003C).
    public static let administratorCommissioning = ClusterID(0x003C)
    /// Operational Credentials (0x003E).
    public static let operationalCredentials = ClusterID(0x003E)
    /// Group Key Management (0x003F).
    public static let groupKeyManagement = ClusterID(0x003F)
    /// ICD Management (0x0046).
    public static let icdManagement = ClusterID(0x0046)
    /// Scenes Management (0x0062).
    public static let scenesManagement = ClusterID(0x0062)
    /// Door Lock (0x0101).
    public static let doorLock = ClusterID(0x0101)
    /// Color Control (0x0300).
    public static let colorControl = ClusterID(0x0300)
}
