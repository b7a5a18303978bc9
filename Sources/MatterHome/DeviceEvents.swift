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
        // The highest event number delivered or already in the log when the subscription began.
        let last = Mutex<UInt64?>(nil)
        @Sendable func deliver(_ events: [EventValue]) {
            for value in events.sorted(by: { $0.eventNumber < $1.eventNumber }) {
                let fresh = last.withLock { last -> Bool in
                    if let seen = last, value.eventNumber <= seen { return false }
                    last = value.eventNumber
                    return true
                }
                guard fresh, let data = value.data, let event = try? Event(tlv: TLVElement(data)) else { continue }
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
                    let eventMin = last.withLock { $0.map { $0 + 1 } }
                    let (subscription, priming) = try await home.controller.subscribe(
                        nodeID, attributes: [], events: [path], eventMin: eventMin, minInterval: 0,
                        maxInterval: home.maxInterval, onEvents: { result in deliver(result.events) },
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
                    if first, includingHistory {
                        deliver(priming.events)
                        first = false
                    } else if first {
                        // The log before the call is history: start after it.
                        let newest = priming.events.map(\.eventNumber).max()
                        last.withLock { last in last = [last, newest].compactMap { $0 }.max() }
                        first = false
                    } else {
                        deliver(priming.events)  // what happened while the device was away
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
