/// A commissionable node found by browsing (or given by direct address).
public struct DiscoveredCommissionableNode: Sendable, Hashable {
    package var instanceName: String
    /// SRV target, e.g. `me-h1.local` (empty for a direct address).
    package var hostName: String
    package var port: UInt16
    /// Every address seen (both families, every interface; link-local ones carry their interface).
    package var addresses: [DNSSDAddress]
    /// The parsed TXT data; nil for a node given by direct address (nothing was advertised).
    package var advertisement: CommissionableAdvertisement?
    /// The TXT record as received.
    package var txt: DNSSDTXTRecord

    package init(
        instanceName: String, hostName: String, port: UInt16, addresses: [DNSSDAddress],
        advertisement: CommissionableAdvertisement?, txt: DNSSDTXTRecord
    ) {
        self.instanceName = instanceName
        self.hostName = hostName
        self.port = port
        self.addresses = addresses
        self.advertisement = advertisement
        self.txt = txt
    }

    /// Parses a resolved `_matterc._udp` service.
    package init(resolved service: DNSSDResolvedService) throws(DiscoveryError) {
        let advertisement = try CommissionableAdvertisement(
            instanceName: service.instanceName, port: service.port, txt: service.txt)
        self.init(
            instanceName: service.instanceName, hostName: service.hostName, port: service.port,
            addresses: service.addresses, advertisement: advertisement, txt: service.txt)
    }

    /// MRP timing to use towards this node (defaults for what it did not advertise).
    package var sessionParameters: MRPAdvertisement { advertisement?.sessionParameters ?? MRPAdvertisement() }
}

/// An operational node found by browsing or resolving (or given by direct address).
public struct DiscoveredOperationalNode: Sendable, Hashable {
    /// Compressed fabric ID, node ID and the TXT data (defaults for a direct address).
    package var advertisement: OperationalAdvertisement
    /// SRV target (empty for a direct address).
    package var hostName: String
    package var port: UInt16
    package var addresses: [DNSSDAddress]
    package var txt: DNSSDTXTRecord

    package init(
        advertisement: OperationalAdvertisement, hostName: String, port: UInt16, addresses: [DNSSDAddress],
        txt: DNSSDTXTRecord
    ) {
        self.advertisement = advertisement
        self.hostName = hostName
        self.port = port
        self.addresses = addresses
        self.txt = txt
    }

    /// Parses a resolved `_matter._tcp` service.
    package init(resolved service: DNSSDResolvedService) throws(DiscoveryError) {
        let advertisement = try OperationalAdvertisement(
            instanceName: service.instanceName, port: service.port, txt: service.txt)
        self.init(
            advertisement: advertisement, hostName: service.hostName, port: service.port,
            addresses: service.addresses, txt: service.txt)
    }

    package var instanceName: String { advertisement.instanceName }
}
