public import MatterCore
public import MatterInteraction
import MatterTransport

/// Events: reads and subscriptions of event paths (mixed with attributes).
extension Controller {
    /// Reads the events at `paths` (wildcards allowed) numbered `eventMin` or later; per-path failures
    /// come back as statuses, a failure of the whole read throws.
    public func readEvents(
        _ nodeID: NodeID, paths: [EventPathIB], eventMin: UInt64? = nil, fabricFiltered: Bool = true
    ) async throws(ControllerError) -> EventReadResult {
        let request = ReadRequestMessage(
            eventRequests: paths, eventFilters: eventMin.map { [EventFilterIB(eventMin: $0)] } ?? [],
            isFabricFiltered: fabricFiltered)
        let context = "node \(nodeID.rawValue) events"
        let result = try await withSession(nodeID, idempotent: true) { session throws(ControllerError) in
            do throws(InteractionError) {
                return try await client.read(request, session: session)
            } catch {
                throw ControllerError(error, context: context)
            }
        }
        var decoder = EventDecoder()
        return decoder.decode(result.events)
    }

    /// Subscribes to attributes and events at once: the priming report's events and every later
    /// report's go through `onEvents` (decoded, timestamps resolved); attribute reports go to
    /// `onReport` as with ``subscribe(_:paths:minInterval:maxInterval:fabricFiltered:keepSubscriptions:onReport:onEnded:)``.
    /// `keepSubscriptions` false (chip-tool's default) makes the node end this controller's other
    /// subscriptions to it; true keeps them.
    public func subscribe(
        _ nodeID: NodeID, attributes: [AttributePathIB], events: [EventPathIB], eventMin: UInt64? = nil,
        minInterval: UInt16, maxInterval: UInt16, fabricFiltered: Bool = true, keepSubscriptions: Bool = false,
        onReport: @escaping @Sendable (SubscriptionReport) -> Void = { _ in },
        onEvents: @escaping @Sendable (EventReadResult) -> Void,
        onEnded: @escaping @Sendable (ControllerError) -> Void = { _ in }
    ) async throws(ControllerError) -> (subscription: ClientSubscription, primingEvents: EventReadResult) {
        let request = SubscribeRequestMessage(
            keepSubscriptions: keepSubscriptions, minIntervalFloor: minInterval, maxIntervalCeiling: maxInterval,
            attributeRequests: attributes,
            eventRequests: events, eventFilters: eventMin.map { [EventFilterIB(eventMin: $0)] } ?? [],
            isFabricFiltered: fabricFiltered)
        let context = "node \(nodeID.rawValue) subscription"
        let subscription = try await withSession(nodeID) { session throws(ControllerError) in
            do throws(InteractionError) {
                return try await client.subscribe(
                    request, session: session,
                    onReport: { report in
                        onReport(report)
                        // Each report is decoded on its own: deltas refer to events of the same report.
                        var decoder = EventDecoder()
                        let decoded = decoder.decode(report.result.events)
                        if !decoded.events.isEmpty || !decoded.statuses.isEmpty { onEvents(decoded) }
                    },
                    onEnded: { error in onEnded(ControllerError(error, context: context)) })
            } catch {
                throw ControllerError(error, context: context)
            }
        }
        var decoder = EventDecoder()
        return (subscription, decoder.decode(subscription.priming.events))
    }
}
