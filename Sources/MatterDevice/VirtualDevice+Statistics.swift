public import MatterInteraction
public import MatterSecureChannel
public import MatterTransport

/// A snapshot of a device's counters (what arrived, what was dropped and why, how handshakes ended)
/// and of the state peers can make it hold (sessions, exchanges, retransmissions).
public struct DeviceStatistics: Sendable, CustomStringConvertible {
    public var transport: TransportStatistics
    public var pase: PASEStatistics
    public var caseEstablishment: CASEStatistics
    /// The interactions peers started: reads, subscriptions, writes, invokes, timed requests.
    public var interactions: InteractionStatistics
    /// Secure sessions (PASE and CASE).
    public var secureSessions: Int
    /// Unsecured sessions: handshakes in flight, or peers heard once.
    public var unsecuredSessions: Int
    /// Session IDs reserved by handshakes between their first answer and their end.
    public var handshakesInProgress: Int
    public var openExchanges: Int
    /// Closed exchanges whose last reliable message awaits its acknowledgement.
    public var closingExchanges: Int
    public var pendingRetransmissions: Int

    /// Every counter by a stable camel-case name, in a fixed order (for JSON and scripts).
    public var counters: [(name: String, value: Int)] {
        let t = transport
        return [
            ("received", t.datagramsReceived), ("sent", t.datagramsSent), ("retransmitted", t.retransmissions),
            ("standaloneAcks", t.standaloneAcksSent), ("droppedUndecodable", t.droppedUndecodable),
            ("droppedUnknownSession", t.droppedUnknownSession), ("droppedUnauthenticated", t.droppedUnauthenticated),
            ("droppedDuplicate", t.droppedDuplicate), ("droppedUnhandled", t.droppedUnhandled),
            ("droppedUnsupported", t.droppedUnsupported), ("droppedByHandler", t.droppedByHandler),
            ("droppedTotal", t.totalDropped), ("unsecuredSessionsEvicted", t.unsecuredSessionsEvicted),
            ("retransmissionsAbandoned", t.retransmissionsAbandoned), ("unacknowledged", t.acknowledgementsMissed),
            ("paseRequests", pase.requests), ("paseRefusedWindowClosed", pase.refusedWindowClosed),
            ("paseRefusedBusy", pase.refusedBusy), ("paseInvalid", pase.invalidRequests), ("paseFailed", pase.failed),
            ("paseAbandoned", pase.abandoned), ("paseEstablished", pase.established),
            ("caseRequests", caseEstablishment.requests), ("caseInvalid", caseEstablishment.invalidRequests),
            ("caseNoSharedTrustRoots", caseEstablishment.noSharedTrustRoots), ("caseFailed", caseEstablishment.failed),
            ("caseEstablished", caseEstablishment.established), ("caseResumed", caseEstablishment.resumed),
            ("readRequests", interactions.readRequests), ("subscribeRequests", interactions.subscribeRequests),
            ("writeRequests", interactions.writeRequests), ("invokeRequests", interactions.invokeRequests),
            ("timedRequests", interactions.timedRequests),
            ("secureSessions", secureSessions), ("unsecuredSessions", unsecuredSessions),
            ("handshakesInProgress", handshakesInProgress), ("openExchanges", openExchanges),
            ("closingExchanges", closingExchanges), ("pendingRetransmissions", pendingRetransmissions),
        ]
    }

    public var description: String {
        "\(transport); PASE \(pase); CASE \(caseEstablishment); interactions: \(interactions); sessions: secure \(secureSessions), "
            + "unsecured \(unsecuredSessions), handshakes \(handshakesInProgress); exchanges: open \(openExchanges), "
            + "closing \(closingExchanges); retransmissions pending \(pendingRetransmissions)"
    }
}

extension VirtualDevice {
    /// Subscriptions the device serves now.
    public func subscriptionCount() async -> Int { await server.subscriptionCount() }

    /// The device's counters and occupancy now.
    public func statistics() async -> DeviceStatistics {
        let boundRoot = self.root
        let server = self.server
        return await node.run { node in Self.statistics(node, boundRoot.value(in: node), server) }
    }

    /// What `/metrics` reports of the device, read in one visit to its node (a fleet of a thousand is
    /// a thousand visits, not four thousand).
    package func metricsSnapshot() async -> DeviceMetricsSnapshot {
        let boundRoot = self.root
        let server = self.server
        return await node.run { node in
            let root = boundRoot.value(in: node)
            return DeviceMetricsSnapshot(
                statistics: Self.statistics(node, root, server), subscriptions: server.subscriptionCount(on: node),
                fabrics: root.committedFabrics.count, commissionable: root.windows.isOpen)
        }
    }

    private static func statistics(
        _ node: isolated TransportNode, _ root: RootNode, _ server: InteractionServer
    ) -> DeviceStatistics {
        DeviceStatistics(
            transport: node.statistics, pase: root.pase.statistics, caseEstablishment: root.caseResponder.statistics,
            interactions: server.statistics,
            secureSessions: node.secureSessionList.count, unsecuredSessions: node.unsecuredSessionCount,
            handshakesInProgress: node.reservedSessionIDCount, openExchanges: node.openExchangeCount,
            closingExchanges: node.closingExchangeCount, pendingRetransmissions: node.pendingRetransmissionCount)
    }
}

/// A device's counters and state for `/metrics`, taken at one moment.
package struct DeviceMetricsSnapshot: Sendable {
    package let statistics: DeviceStatistics
    package let subscriptions: Int
    package let fabrics: Int
    package let commissionable: Bool
}
