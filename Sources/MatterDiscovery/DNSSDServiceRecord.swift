/// One DNS-SD service instance as published: PTR for the service type and each subtype, SRV to this
/// host's name and `port`, and TXT. The daemon (or the double) supplies host name and addresses.
public struct DNSSDServiceRecord: Sendable, Hashable {
    /// What to do when another host already owns `instanceName`.
    package enum CollisionRenaming: Sendable, Hashable {
        /// Pick a fresh random 16-hex-digit name (commissionable and commissioner instances).
        case randomHex
        /// Append ` #2`, ` #3`... (Avahi's convention; used for any other name).
        case numbered
    }

    /// Longest instance name: one DNS label.
    package static let maxInstanceNameBytes = 63

    /// Service type such as `_matterc._udp` (no domain).
    package var serviceType: String
    /// The instance label, e.g. `87E1B004E235A130-8FC7772401CD0696`.
    package var instanceName: String
    /// SRV port.
    package var port: UInt16
    /// Subtype labels such as `_L3840` (without `._sub.<type>`).
    package var subtypes: [String]
    /// TXT entries.
    package var txt: DNSSDTXTRecord
    /// How to rename on a name collision.
    package var renaming: CollisionRenaming
    /// Whether the embedded responder probes the name before announcing it (RFC 6762 §8.1). False for a name
    /// that is an identity assigned elsewhere, which a conflict would not be settled by renaming: a node's
    /// operational instance (its compressed fabric ID and node ID, given by the fabric's administrator), which
    /// a commissioner resolves right after AddNOC. Such a name is announced at once, as the connectedhomeip
    /// SDK's own responder does; a conflict seen afterwards still renames it.
    package var probes: Bool

    package init(
        serviceType: String, instanceName: String, port: UInt16, subtypes: [String] = [],
        txt: DNSSDTXTRecord = DNSSDTXTRecord(), renaming: CollisionRenaming? = nil, probes: Bool = true
    ) {
        self.probes = probes
        self.serviceType = serviceType
        self.instanceName = instanceName
        self.port = port
        self.subtypes = subtypes
        self.txt = txt
        self.renaming = renaming ?? (MatterInstanceName.isRandomHex(instanceName) ? .randomHex : .numbered)
    }

    /// Checks the DNS-SD limits: label lengths, service type shape, TXT entry sizes.
    package func validate() throws(DiscoveryError) {
        try DNSSDServiceRecord.validateInstanceName(instanceName)
        try DNSSDServiceRecord.validateServiceType(serviceType)
        for subtype in subtypes {
            guard subtype.hasPrefix("_"), subtype.utf8.count <= 63, !subtype.contains(".") else {
                throw .invalidRecord("subtype '\(subtype)' must be one label starting with '_'")
            }
        }
        _ = try txt.wireStrings()
    }

    static func validateInstanceName(_ name: String) throws(DiscoveryError) {
        guard !name.isEmpty, name.utf8.count <= maxInstanceNameBytes else {
            throw .invalidRecord("instance name '\(name)' must be 1 to 63 bytes")
        }
    }

    static func validateServiceType(_ type: String) throws(DiscoveryError) {
        let labels = type.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count == 2, labels[0].hasPrefix("_"), labels[0].utf8.count >= 2, labels[0].utf8.count <= 16,
            labels[1] == "_udp" || labels[1] == "_tcp"
        else {
            throw .invalidRecord("service type '\(type)' must look like _name._udp or _name._tcp")
        }
    }
}

/// Identifies one publication made through a `DNSSDAdvertiser`.
public struct DNSSDPublicationID: Sendable, Hashable, CustomStringConvertible {
    package let rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }
    public var description: String { "publication#\(rawValue)" }
}
