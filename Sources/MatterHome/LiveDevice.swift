import MatterClusters
import MatterController
import MatterCore
import MatterInteraction
import MatterTLV
import Synchronization

/// What an open ``Home`` knows of one commissioned node: every attribute it reported, kept current
/// by one wildcard subscription that is opened again whenever it is lost (the node restarted, went
/// away and came back). Trait attributes read this cache synchronously.
final class LiveDevice: Sendable {
    let nodeID: NodeID

    private struct ClusterKey: Hashable {
        let endpoint: EndpointID
        let cluster: ClusterID
    }

    private struct State {
        var values: [ConcreteAttributePath: TLVValue] = [:]
        var versions: [ClusterKey: UInt32] = [:]
        /// True once the first subscription attempt ended, primed or failed.
        var settled = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var observers: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextObserver = 0
        /// Callers waiting for a cluster's DataVersion to move past a known one.
        var versionWaiters: [Int: VersionWaiter] = [:]
        var nextVersionWaiter = 0
        var subscription: ClientSubscription?
        /// Whether the last subscription attempt holds (true), ended or failed (false); nil before the first.
        var online: Bool?
    }

    /// A caller waiting until the cache satisfies `ready` (a cluster's DataVersion moved, written values
    /// arrived).
    private struct VersionWaiter {
        let ready: @Sendable (State) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private let state = Mutex(State())
    private let runner = Mutex<Task<Void, Never>?>(nil)

    init(nodeID: NodeID) { self.nodeID = nodeID }

    // MARK: Subscription

    /// Starts keeping the cache current through `controller`.
    func start(controller: Controller, maxInterval: UInt16, retryLimit: Duration) {
        let task = Task { [self] in
            await keepSubscribed(controller, maxInterval: maxInterval, retryLimit: retryLimit)
        }
        runner.withLock { $0 = task }
    }

    /// Ends the subscription and wakes every waiter.
    func stop(controller: Controller) async {
        let task = runner.withLock { task in
            defer { task = nil }
            return task
        }
        task?.cancel()
        await task?.value
        let (subscription, observers, waiters) = state.withLock { s in
            defer {
                s.subscription = nil
                s.observers = [:]
                s.versionWaiters = [:]
            }
            return (s.subscription, Array(s.observers.values), Array(s.versionWaiters.values))
        }
        if let subscription { await controller.cancel(subscription) }
        for observer in observers { observer.finish() }
        for waiter in waiters { waiter.continuation.resume() }
        settle()
    }

    private func keepSubscribed(_ controller: Controller, maxInterval: UInt16, retryLimit: Duration) async {
        var delay = Duration.milliseconds(250)
        while !Task.isCancelled {
            let (ended, endedContinuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            do {
                let subscription = try await controller.subscribe(
                    nodeID, paths: [AttributePathIB()], minInterval: 0, maxInterval: maxInterval,
                    keepSubscriptions: true,
                    onReport: { [weak self] report in self?.apply(report.result.attributes) },
                    onEnded: { _ in
                        endedContinuation.yield()
                        endedContinuation.finish()
                    })
                apply(subscription.priming.attributes, authoritative: true)
                state.withLock {
                    $0.subscription = subscription
                    $0.online = true
                }
                settle()
                delay = .milliseconds(250)
                for await _ in ended { break }
                state.withLock {
                    $0.subscription = nil
                    $0.online = false
                }
                if Task.isCancelled {
                    await controller.cancel(subscription)
                    return
                }
            } catch {
                state.withLock { $0.online = false }
                settle()
            }
            guard !Task.isCancelled else { return }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, retryLimit)
        }
    }

    private func settle() {
        let waiters = state.withLock { s in
            s.settled = true
            defer { s.waiters = [] }
            return s.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the first subscription attempt has ended (primed the cache, or failed).
    func waitUntilSettled() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { s in
                if s.settled { return true }
                s.waiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Online while the subscription holds; offline once it was lost or could not be made; unknown before
    /// the first attempt ended.
    var connectivityState: ConnectivityState {
        switch state.withLock({ $0.online }) {
        case true?: .online
        case false?: .offline
        case nil: .unknown
        }
    }

    // MARK: Cache

    /// Merges reports into the cache. A subscription's report older than what the cache holds for its
    /// cluster (a lower DataVersion) is ignored; an `authoritative` one (a priming report, a read) is
    /// always taken, since a device that restarted numbers its data versions afresh. Observers hear
    /// of every merge that changed something.
    func apply(_ reports: [AttributeReport], authoritative: Bool = false) {
        guard !reports.isEmpty else { return }
        let (observers, woken) = state.withLock { s -> ([AsyncStream<Void>.Continuation], [VersionWaiter]) in
            var changed = false
            for report in reports {
                let key = ClusterKey(endpoint: report.path.endpoint, cluster: report.path.cluster)
                if let version = report.dataVersion {
                    if !authoritative, let known = s.versions[key], version < known, known - version < UInt32.max / 2 {
                        continue
                    }
                    s.versions[key] = version
                }
                switch report.result {
                case .success(let value):
                    if s.values[report.path] != value {
                        s.values[report.path] = value
                        changed = true
                    }
                case .failure:
                    if s.values.removeValue(forKey: report.path) != nil { changed = true }
                }
            }
            let current = s
            let moved = s.versionWaiters.filter { _, waiter in waiter.ready(current) }
            for id in moved.keys { s.versionWaiters.removeValue(forKey: id) }
            return (changed ? Array(s.observers.values) : [], Array(moved.values))
        }
        for waiter in woken { waiter.continuation.resume() }
        for observer in observers { observer.yield() }
    }

    /// The DataVersion of a cluster as last reported; nil before any report of it.
    func dataVersion(_ endpoint: EndpointID, _ cluster: ClusterID) -> UInt32? {
        state.withLock { $0.versions[ClusterKey(endpoint: endpoint, cluster: cluster)] }
    }

    /// Returns once a report moved the cluster's DataVersion away from `version` (what a command changed
    /// has then reached the cache), or after `limit`, or at once when the subscription is down (nothing
    /// would report it).
    func waitForReport(_ endpoint: EndpointID, _ cluster: ClusterID, after version: UInt32?, limit: Duration) async {
        let key = ClusterKey(endpoint: endpoint, cluster: cluster)
        await wait(limit: limit) { state in state.versions[key] != version }
    }

    /// Returns once the cache holds `values` for the attributes of `cluster` on `endpoint` (what a write
    /// set has been reported), or after `limit`, or at once when the subscription is down.
    func waitForValues(
        _ endpoint: EndpointID, _ cluster: ClusterID, _ values: [(AttributeID, TLVValue)], limit: Duration
    ) async {
        let expected = values.map {
            (ConcreteAttributePath(endpoint: endpoint, cluster: cluster, attribute: $0.0), $0.1)
        }
        await wait(limit: limit) { state in expected.allSatisfy { state.values[$0.0] == $0.1 } }
    }

    private func wait(limit: Duration, until ready: @escaping @Sendable (State) -> Bool) async {
        let id = state.withLock { s in
            defer { s.nextVersionWaiter += 1 }
            return s.nextVersionWaiter
        }
        var timeout: Task<Void, Never>?
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { s in
                if s.subscription == nil || ready(s) { return true }
                s.versionWaiters[id] = VersionWaiter(ready: ready, continuation: continuation)
                return false
            }
            if done {
                continuation.resume()
            } else {
                timeout = Task { [weak self] in
                    try? await Task.sleep(for: limit)
                    self?.resumeVersionWaiter(id)
                }
            }
        }
        timeout?.cancel()
    }

    private func resumeVersionWaiter(_ id: Int) {
        state.withLock { $0.versionWaiters.removeValue(forKey: id) }?.continuation.resume()
    }

    /// The cached value of one attribute; nil when the node has not reported it.
    func value(_ endpoint: EndpointID, _ cluster: ClusterID, _ attribute: AttributeID) -> TLVValue? {
        state.withLock { $0.values[ConcreteAttributePath(endpoint: endpoint, cluster: cluster, attribute: attribute)] }
    }

    /// The numbers of a list attribute (AttributeList, AcceptedCommandList, ServerList); nil when unknown.
    func numbers(_ endpoint: EndpointID, _ cluster: ClusterID, _ attribute: AttributeID) -> Set<UInt64>? {
        guard let list = value(endpoint, cluster, attribute) else { return nil }
        return Set((list.members ?? []).compactMap(\.uint))
    }

    /// True when the cluster on `endpoint` lists `attribute`; nil before the node reported the cluster.
    func hasAttribute(_ endpoint: EndpointID, _ cluster: ClusterID, _ attribute: AttributeID) -> Bool? {
        numbers(endpoint, cluster, .attributeList).map { $0.contains(UInt64(attribute.rawValue)) }
    }

    /// True when the cluster on `endpoint` accepts `command`; nil before the node reported the cluster.
    func accepts(_ endpoint: EndpointID, _ cluster: ClusterID, _ command: CommandID) -> Bool? {
        numbers(endpoint, cluster, .acceptedCommandList).map { $0.contains(UInt64(command.rawValue)) }
    }

    /// True when `endpoint` has a server for `cluster` (its Descriptor ServerList).
    func hasCluster(_ endpoint: EndpointID, _ cluster: ClusterID) -> Bool {
        if let servers = numbers(endpoint, .descriptor, .Descriptor.serverList) {
            return servers.contains(UInt64(cluster.rawValue))
        }
        return value(endpoint, cluster, .attributeList) != nil
    }

    /// The device types of every endpoint, from the Descriptors the node reported.
    func deviceTypes() -> [(endpoint: EndpointID, deviceType: DeviceTypeID)] {
        state.withLock { s in
            s.values.compactMap { path, value -> [(EndpointID, DeviceTypeID)]? in
                guard path.cluster == .descriptor, path.attribute == .Descriptor.deviceTypeList else { return nil }
                return (value.members ?? []).compactMap { entry in
                    entry[context: 0]?.uint.flatMap(UInt32.init(exactly:)).map { (path.endpoint, DeviceTypeID($0)) }
                }
            }.flatMap { $0 }.sorted { $0.0 < $1.0 }.map { (endpoint: $0.0, deviceType: $0.1) }
        }
    }

    /// A sequence that yields whenever a report changed the cache (coalesced), until the Home closes.
    func updates() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { s in
            defer { s.nextObserver += 1 }
            s.observers[s.nextObserver] = continuation
            return s.nextObserver
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
        }
        return stream
    }
}
