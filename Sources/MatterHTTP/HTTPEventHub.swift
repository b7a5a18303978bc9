import Dispatch
import Synchronization

/// Fans messages out to Server-Sent Events subscribers. Each subscriber has a bounded queue: one that
/// falls ``maxQueued`` messages behind is ended (the browser's EventSource reconnects) rather than
/// letting it hold memory without bound or slow the publisher.
package final class HTTPEventHub: Sendable {
    /// Messages a subscriber may have waiting before it is ended.
    package let maxQueued: Int
    /// Subscribers at once; one more is refused (the server answers 503).
    package let maxSubscribers: Int
    private struct State {
        var subscribers: [ObjectIdentifier: HTTPEventSubscription] = [:]
        var closed = false
    }
    private let state = Mutex(State())

    package init(maxQueued: Int = 4096, maxSubscribers: Int = 32) {
        self.maxQueued = maxQueued
        self.maxSubscribers = maxSubscribers
    }

    /// A new subscription, or nil when ``maxSubscribers`` are connected or the hub is closed.
    package func subscribe() -> HTTPEventSubscription? {
        state.withLock { state -> HTTPEventSubscription? in
            guard !state.closed, state.subscribers.count < maxSubscribers else { return nil }
            let subscription = HTTPEventSubscription(hub: self, maxQueued: maxQueued)
            state.subscribers[ObjectIdentifier(subscription)] = subscription
            return subscription
        }
    }

    /// Sends `data` (one line of JSON) to every subscriber as one event.
    package func publish(_ data: String) {
        let message = Array("data: \(data)\n\n".utf8)
        for subscriber in state.withLock({ Array($0.subscribers.values) }) { subscriber.enqueue(message) }
    }

    /// Subscribers connected now.
    package var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Ends every subscription and refuses new ones (before the server stops: their threads return).
    package func close() {
        let all = state.withLock { state -> [HTTPEventSubscription] in
            state.closed = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in all { subscriber.end() }
    }

    func remove(_ subscription: HTTPEventSubscription) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: ObjectIdentifier(subscription)) }
    }
}

/// One subscriber's queue: the hub appends, the connection's thread takes (waiting when empty).
package final class HTTPEventSubscription: Sendable {
    private struct State {
        var queue: [[UInt8]] = []
        var ended = false
    }
    private let state = Mutex(State())
    private let signal = DispatchSemaphore(value: 0)
    private let maxQueued: Int
    private weak let hub: HTTPEventHub?

    init(hub: HTTPEventHub, maxQueued: Int) {
        self.hub = hub
        self.maxQueued = maxQueued
    }

    func enqueue(_ message: [UInt8]) {
        let woke = state.withLock { state -> Bool in
            guard !state.ended else { return false }
            if state.queue.count >= maxQueued {
                state.ended = true  // too slow: ended, never unbounded
                state.queue = []
            } else {
                state.queue.append(message)
            }
            return true
        }
        if woke { signal.signal() }
    }

    /// Ends the stream: the waiting reader returns nil.
    package func end() {
        state.withLock { $0.ended = true }
        signal.signal()
        hub?.remove(self)
    }

    /// The next message, waiting up to `timeout`: `.message`, `.idle` after the timeout, `.ended`.
    func next(timeout: DispatchTimeInterval) -> Next {
        while true {
            let taken = state.withLock { state -> Next? in
                if state.ended { return .ended }
                if !state.queue.isEmpty { return .message(state.queue.removeFirst()) }
                return nil
            }
            if let taken { return taken }
            if signal.wait(timeout: .now() + timeout) == .timedOut { return .idle }
        }
    }

    enum Next {
        case message([UInt8])
        case idle
        case ended
    }
}
