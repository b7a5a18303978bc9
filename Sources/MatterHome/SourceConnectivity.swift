/// Where a device's state comes from and whether it is reachable (the Home API's `sourceConnectivity`).
public struct SourceConnectivity: Sendable, Hashable {
    /// Whether the device is reachable now.
    public let connectivityState: ConnectivityState
    /// Where its data comes from: always ``DataSourceLocality/local`` here (this process talks to the
    /// device on the LAN; there is no cloud).
    public let dataSourceLocality: DataSourceLocality
}

/// Whether a device is reachable: online while the home's subscription to it holds, offline once it was
/// lost (the device stopped, went away) or could not be made, unknown before the first attempt ended.
public enum ConnectivityState: Sendable, Hashable {
    case online
    case partiallyOnline
    case offline
    case unknown
}

/// Where a device's data comes from.
public enum DataSourceLocality: Sendable, Hashable {
    case local
    case remote
    case none
}

/// Whether a device can be decommissioned (``HomeDevice/decommissionEligibility``).
public enum DecommissionEligibility: Sendable, Hashable {
    /// Decommissioning removes this device only.
    case eligible
    /// Decommissioning also removes the devices named (not the case of a Matter node here: its bridged
    /// devices are endpoints of the same device).
    case eligibleWithSideEffects(affectedDeviceIDs: Set<String>)
    /// The device cannot be decommissioned (it is no longer in the home).
    case ineligible
}
