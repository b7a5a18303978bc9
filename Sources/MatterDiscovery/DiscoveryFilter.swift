public import MatterCore

/// Which commissionable nodes to look for. Each filter browses the matching subtype (so only those
/// nodes answer) and re-checks the TXT record, so a node with an inconsistent record is dropped.
public enum CommissionableFilter: Sendable, Hashable, CustomStringConvertible {
    /// Every commissionable node.
    case any
    /// `_L<d>` / `D`: from a QR code.
    case longDiscriminator(UInt16)
    /// `_S<d>` / `D >> 8`: from a manual pairing code.
    case shortDiscriminator(UInt8)
    /// `_V<vid>` / `VP`.
    case vendor(VendorID)
    /// `_T<type>` / `DT`.
    case deviceType(DeviceTypeID)
    /// `_CM` / `CM ≠ 0`: nodes with an open commissioning window.
    case commissioningMode
    /// One instance by name.
    case instanceName(String)

    /// The browse query this filter maps to.
    package var query: DNSSDQuery {
        let type = MatterDNSSD.commissionableServiceType
        switch self {
        case .any: return DNSSDQuery(serviceType: type)
        case .longDiscriminator(let d):
            return DNSSDQuery(serviceType: type, subtype: MatterDNSSD.longDiscriminatorSubtype(d))
        case .shortDiscriminator(let s):
            return DNSSDQuery(serviceType: type, subtype: MatterDNSSD.shortDiscriminatorSubtype(s))
        case .vendor(let v): return DNSSDQuery(serviceType: type, subtype: MatterDNSSD.vendorSubtype(v))
        case .deviceType(let t): return DNSSDQuery(serviceType: type, subtype: MatterDNSSD.deviceTypeSubtype(t))
        case .commissioningMode: return DNSSDQuery(serviceType: type, subtype: MatterDNSSD.commissioningModeSubtype)
        case .instanceName(let name): return DNSSDQuery(serviceType: type, instanceName: name)
        }
    }

    /// True when `advertisement` (a parsed TXT record) satisfies the filter.
    package func matches(_ advertisement: CommissionableAdvertisement) -> Bool {
        switch self {
        case .any: true
        case .longDiscriminator(let d): advertisement.longDiscriminator == d
        case .shortDiscriminator(let s): advertisement.shortDiscriminator == s
        case .vendor(let v): advertisement.vendorID == v
        case .deviceType(let t): advertisement.deviceType == t
        case .commissioningMode: advertisement.commissioningMode.isOpen
        case .instanceName(let name): advertisement.instanceName.lowercased() == name.lowercased()
        }
    }

    public var description: String {
        switch self {
        case .any: "any commissionable node"
        case .longDiscriminator(let d): "long discriminator \(d)"
        case .shortDiscriminator(let s): "short discriminator \(s)"
        case .vendor(let v): "vendor \(v.rawValue)"
        case .deviceType(let t): "device type \(t.rawValue)"
        case .commissioningMode: "nodes in commissioning mode"
        case .instanceName(let name): "instance \(name)"
        }
    }
}

/// Which operational nodes to look for.
public enum OperationalFilter: Sendable, Hashable, CustomStringConvertible {
    /// Every operational node.
    case any
    /// Every node of one fabric (`_I<cfid>`).
    case compressedFabricID(UInt64)
    /// One node: `<cfid>-<node>`.
    case node(compressedFabricID: UInt64, nodeID: NodeID)

    /// The browse query this filter maps to.
    package var query: DNSSDQuery {
        let type = MatterDNSSD.operationalServiceType
        switch self {
        case .any: return DNSSDQuery(serviceType: type)
        case .compressedFabricID(let c):
            return DNSSDQuery(serviceType: type, subtype: MatterDNSSD.compressedFabricSubtype(c))
        case .node(let c, let n):
            return DNSSDQuery(
                serviceType: type, instanceName: MatterInstanceName.operational(compressedFabricID: c, nodeID: n))
        }
    }

    package func matches(_ advertisement: OperationalAdvertisement) -> Bool {
        switch self {
        case .any: true
        case .compressedFabricID(let c): advertisement.compressedFabricID == c
        case .node(let c, let n): advertisement.compressedFabricID == c && advertisement.nodeID == n
        }
    }

    public var description: String {
        switch self {
        case .any: "any operational node"
        case .compressedFabricID(let c): "fabric \(MatterDNSSD.compressedFabricSubtype(c).dropFirst(2))"
        case .node(let c, let n): "node \(MatterInstanceName.operational(compressedFabricID: c, nodeID: n))"
        }
    }
}
