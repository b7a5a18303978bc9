package import MatterCore

/// Publishes DNS-SD services and keeps them published: renames on a name collision (see
/// `DNSSDServiceRecord.CollisionRenaming`) and re-registers after the daemon comes back.
/// Implemented by `AvahiDNSSD` and `InMemoryDNSSD`.
public protocol DNSSDAdvertiser: Sendable {
    /// Starts publishing `record` and returns at once; registration completes in the background.
    func publish(_ record: DNSSDServiceRecord) async throws(DiscoveryError) -> DNSSDPublicationID
    /// Replaces a publication's record (TXT only in place; anything else is re-announced).
    func update(_ publication: DNSSDPublicationID, to record: DNSSDServiceRecord) async throws(DiscoveryError)
    /// Withdraws a publication (goodbye packets go out); unknown IDs are ignored.
    func withdraw(_ publication: DNSSDPublicationID) async
    /// The instance name currently in use (differs from the record's after a collision), or nil.
    func instanceName(of publication: DNSSDPublicationID) async -> String?
    /// Waits until the publication is established on the network and returns its instance name.
    func waitUntilEstablished(_ publication: DNSSDPublicationID, timeout: Duration) async throws(DiscoveryError)
        -> String
}

/// Finds Matter nodes. Implemented by every `DNSSDBrowser` (Avahi, in-memory) and by
/// `StaticResolver` (direct addresses). Calls return once `limit` nodes are found, or when
/// `timeout` has passed (with what was found so far, possibly nothing).
public protocol MatterNodeBrowser: Sendable {
    func discoverCommissionable(
        _ filter: CommissionableFilter, timeout: Duration, limit: Int?
    ) async throws(DiscoveryError) -> [DiscoveredCommissionableNode]

    func discoverOperational(
        _ filter: OperationalFilter, timeout: Duration, limit: Int?
    ) async throws(DiscoveryError) -> [DiscoveredOperationalNode]
}

extension MatterNodeBrowser {
    /// Resolves one operational node, throwing `.notFound` when it does not answer within `timeout`.
    package func resolveOperational(
        compressedFabricID: UInt64, nodeID: NodeID, timeout: Duration
    ) async throws(DiscoveryError) -> DiscoveredOperationalNode {
        let filter = OperationalFilter.node(compressedFabricID: compressedFabricID, nodeID: nodeID)
        guard let node = try await discoverOperational(filter, timeout: timeout, limit: 1).first else {
            throw .notFound("no \(filter) answered within \(timeout)")
        }
        return node
    }
}

/// Browses DNS-SD and resolves what it finds. Every conforming type is also a `MatterNodeBrowser`.
package protocol DNSSDBrowser: MatterNodeBrowser {
    /// Browses `query`, resolves each instance on every interface and address family, and returns
    /// the services `accept` keeps, once `limit` of them are complete or when `timeout` passes.
    func browse(
        _ query: DNSSDQuery, timeout: Duration, limit: Int?,
        accept: @escaping @Sendable (DNSSDResolvedService) -> Bool
    ) async throws(DiscoveryError) -> [DNSSDResolvedService]
}

extension DNSSDBrowser {
    /// Browses `query` and keeps every service found.
    package func browse(_ query: DNSSDQuery, timeout: Duration, limit: Int? = nil) async throws(DiscoveryError)
        -> [DNSSDResolvedService]
    {
        try await browse(query, timeout: timeout, limit: limit, accept: { _ in true })
    }

    package func discoverCommissionable(
        _ filter: CommissionableFilter, timeout: Duration, limit: Int? = nil
    ) async throws(DiscoveryError) -> [DiscoveredCommissionableNode] {
        let services = try await browse(filter.query, timeout: timeout, limit: limit) { service in
            guard let node = try? DiscoveredCommissionableNode(resolved: service), let ad = node.advertisement else {
                return false
            }
            return filter.matches(ad)
        }
        return services.compactMap { try? DiscoveredCommissionableNode(resolved: $0) }
    }

    package func discoverOperational(
        _ filter: OperationalFilter, timeout: Duration, limit: Int? = nil
    ) async throws(DiscoveryError) -> [DiscoveredOperationalNode] {
        let services = try await browse(filter.query, timeout: timeout, limit: limit) { service in
            guard let node = try? DiscoveredOperationalNode(resolved: service) else { return false }
            return filter.matches(node.advertisement)
        }
        return services.compactMap { try? DiscoveredOperationalNode(resolved: $0) }
    }
}

extension DNSSDAdvertiser {
    /// Publishes a commissionable node's `_matterc._udp` record.
    package func publish(_ advertisement: CommissionableAdvertisement) async throws(DiscoveryError)
        -> DNSSDPublicationID
    {
        try await publish(try advertisement.serviceRecord())
    }

    /// Publishes an operational node's `_matter._tcp` record.
    package func publish(_ advertisement: OperationalAdvertisement) async throws(DiscoveryError) -> DNSSDPublicationID {
        try await publish(try advertisement.serviceRecord())
    }

    /// Replaces a commissionable publication (e.g. CM changed, or a new window with a new name).
    package func update(_ publication: DNSSDPublicationID, to advertisement: CommissionableAdvertisement)
        async throws(DiscoveryError)
    {
        try await update(publication, to: try advertisement.serviceRecord())
    }

    /// Replaces an operational publication (e.g. new MRP parameters).
    package func update(_ publication: DNSSDPublicationID, to advertisement: OperationalAdvertisement)
        async throws(DiscoveryError)
    {
        try await update(publication, to: try advertisement.serviceRecord())
    }
}
