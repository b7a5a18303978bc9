import MatterCore
package import MatterTransport

/// One subscription a peer holds on this server.
final class ServerSubscription {
    let id: UInt32
    let session: SessionID
    let subject: SubjectDescriptor
    let attributePaths: [AttributePathIB]
    let eventPaths: [EventPathIB]
    let isFabricFiltered: Bool
    let minIntervalFloor: UInt16
    let maxInterval: UInt16
    /// True once SubscribeResponse went out; reports follow.
    var isActive = false
    /// When the last report (or the SubscribeResponse) was sent, clock milliseconds.
    var lastReport: UInt64 = 0
    /// Attributes changed since the last report.
    var dirty = Set<ConcreteAttributePath>()
    /// New events may match.
    var eventsPending = false
    /// An event on one of the subscription's urgent paths is pending: report it now.
    var urgentPending = false
    /// The next event number to report.
    var nextEventNumber: UInt64 = 0
    /// A report is on the wire, awaiting the client's StatusResponse.
    var inFlight = false

    init(
        id: UInt32, session: SessionID, subject: SubjectDescriptor, request: SubscribeRequestMessage,
        maxInterval: UInt16
    ) {
        self.id = id
        self.session = session
        self.subject = subject
        attributePaths = request.attributeRequests
        eventPaths = request.eventRequests
        isFabricFiltered = request.isFabricFiltered
        minIntervalFloor = request.minIntervalFloor
        self.maxInterval = maxInterval
    }

    /// When the next report is due: changes wait for the min interval, otherwise an empty report keeps
    /// the subscription alive at the max interval.
    var nextDue: UInt64? {
        guard isActive, !inFlight else { return nil }
        if urgentPending { return lastReport }
        if !dirty.isEmpty || eventsPending { return lastReport + UInt64(minIntervalFloor) * 1000 }
        return lastReport + UInt64(maxInterval) * 1000
    }

    func matches(_ path: ConcreteAttributePath) -> Bool { attributePaths.contains { $0.matches(path) } }

    /// True when a request path names `path` concretely (its failures are reported, not skipped).
    func isConcretelyRequested(_ path: ConcreteAttributePath) -> Bool {
        attributePaths.contains { $0.concrete == path }
    }

    /// Same peer: same fabric and node, or, without a fabric, the same session.
    func isFromSamePeer(as subject: SubjectDescriptor, session: SessionID) -> Bool {
        guard subject.hasFabric else { return self.session == session }
        return self.subject.fabricIndex == subject.fabricIndex && self.subject.subject == subject.subject
            && self.subject.authMode == subject.authMode
    }
}

/// What ``InteractionServer/subscriptionSummaries()`` reports about one subscription.
package struct SubscriptionSummary: Hashable, Sendable {
    package let id: UInt32
    package let session: SessionID
    package let subject: SubjectDescriptor
    package let minIntervalFloor: UInt16
    package let maxInterval: UInt16
    /// False while the priming report is still being sent.
    package let isActive: Bool
}
