public import MatterClusters
import MatterController
import MatterCore
import MatterInteraction
import MatterTLV
import Synchronization

/// An event a device reported, typed (`HomeEvent<Clusters.DoorLock.Events.LockOperation>`): its fields,
/// its number (the device's, increasing), priority and timestamp.
public struct HomeEvent<Event: ClusterEvent>: Sendable {
    /// The event's fields.
    public let event: Event
    /// The device's event number: each event has its own, higher than the ones before.
    public let eventNumber: UInt64
    public let priority: EventPriority
    public let timestamp: EventTimestamp
}

/// An event's priority.
public enum EventPriority: UInt8, Sendable, Hashable {
    case debug = 0
    case info = 1
    case critical = 2
}

/// When an event happened, in milliseconds.
public enum EventTimestamp: Sendable, Hashable {
    /// Since the Unix epoch.
    case epoch(UInt64)
    /// Since the device booted (a device without a clock).
    case system(UInt64)
}

/// The events of a device type's endpoint (`deviceType.events`).
public struct DeviceEvents: Sendable {
    let part: DevicePart

    /// The events of type `type` on this endpoint, as they happen, while the home is open. When the device
    /// goes away and comes back, the events it recorded meanwhile are delivered from its event log (by event
    /// number: none lost while the log holds them, none twice). The events the device recorded before the
    /// subscription began are delivered first when `includingHistory` is true, else not. A group part has
    /// no events: the sequence fails with `invalidArgument`; an endpoint without the event fails with the
    /// device's status (`notFound`).
    public func subscribe<Event: ClusterEvent>(
        _ type: Event.Type, includingHistory: Bool = false
    ) -> AsyncThrowingStream<HomeEvent<Event>, any Error> {
        let (stream, continuation) = AsyncThrowingStream<HomeEvent<Event>, any Error>.makeStream()
        guard part.group == nil, let member = part.members.first else {
            continuation.finish(throwing: HomeError.invalid("events come from a device, not from a group part"))
            return stream
        }
        let home = part.home
        let path = EventPathIB(endpoint: member.endpoint, cluster: Event.cluster, event: Event.id)
        let nodeID = member.live.nodeID
        // Delivery state, changed only under its lock so that events go out once and in number order: the
        // highest number delivered (or in the log when the first subscription began), and the events a report
        // brought before the subscription's priming was taken in (a report may overtake it).
        let progress = Mutex(EventProgress())
        @Sendable func deliver(_ events: [EventValue], _ state: inout EventProgress) {
            for value in events.sorted(by: { $0.eventNumber < $1.eventNumber }) {
                if let seen = state.last, value.eventNumber <= seen { continue }
                state.last = value.eventNumber
                guard let data = value.data, let event = try? Event(tlv: TLVElement(data)) else { continue }
                continuation.yield(
                    HomeEvent(
                        event: event, eventNumber: value.eventNumber,
                        priority: EventPriority(rawValue: value.priority) ?? .info,
                        timestamp: {
                            switch value.timestamp {
                            case .epoch(let ms): .epoch(ms)
                            case .system(let ms): .system(ms)
                            }
                        }()))
            }
        }
        let task = Task {
            var delay = Duration.milliseconds(250)
            var first = true
            while !Task.isCancelled, !home.isClosed {
                let (ended, endedContinuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
                do throws(ControllerError) {
                    let eventMin = progress.withLock { state in
                        state.primed = false
                        return state.last.map { $0 + 1 }
                    }
                    let (subscription, priming) = try await home.controller.subscribe(
                        nodeID, attributes: [], events: [path], eventMin: eventMin, minInterval: 0,
                        maxInterval: home.maxInterval, keepSubscriptions: true,
                        onEvents: { result in
                            progress.withLock { state in
                                if state.primed {
                                    deliver(result.events, &state)
                                } else {
                                    state.pending += result.events
                                }
                            }
                        },
                        onEnded: { _ in
                            endedContinuation.yield()
                            endedContinuation.finish()
                        })
                    if let refused = priming.statuses.first {
                        // The endpoint has no such event (UNSUPPORTED_EVENT, _CLUSTER, _ENDPOINT...).
                        await home.controller.cancel(subscription)
                        continuation.finish(
                            throwing: HomeError(
                                ControllerError.status(
                                    refused.status, context: "node \(nodeID.rawValue) event \(Event.self)")))
                        return
                    }
                    let skipHistory = first && !includingHistory
                    first = false
                    progress.withLock { state in
                        if skipHistory {
                            // The log before the call is history: start after it.
                            let newest = priming.events.map(\.eventNumber).max()
                            state.last = [state.last, newest].compactMap { $0 }.max()
                        } else {
                            deliver(priming.events, &state)  // the log, or what happened while the device was away
                        }
                        state.primed = true
                        deliver(state.pending, &state)
                        state.pending = []
                    }
                    delay = .milliseconds(250)
                    await withTaskCancellationHandler {
                        for await _ in ended { break }
                    } onCancel: {
                        endedContinuation.finish()
                    }
                    if Task.isCancelled || home.isClosed {
                        await home.controller.cancel(subscription)
                        break
                    }
                } catch {
                    if case .status(let status, _) = error,
                        [IMStatus.unsupportedEvent, .unsupportedCluster, .unsupportedEndpoint].contains(status.status)
                    {
                        continuation.finish(throwing: HomeError(error))
                        return
                    }
                }
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, home.retryLimit)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

extension DeviceType {
    /// The events of the device type's endpoint: `lock.events.subscribe(Clusters.DoorLock.Events.LockOperation.self)`.
    public var events: DeviceEvents { DeviceEvents(part: part) }
}

/// What an event subscription delivered so far (``DeviceEvents/subscribe(_:includingHistory:)``): the highest
/// event number delivered (or in the log when the first subscription began), whether the current subscription's
/// priming was taken in, and the events a report brought before that (a report may overtake the priming).
struct EventProgress {
    var last: UInt64?
    var primed = false
    var pending: [EventValue] = []
}
