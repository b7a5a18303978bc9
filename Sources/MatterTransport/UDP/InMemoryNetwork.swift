package import Dispatch
package import MatterCore
import Synchronization

/// A deterministic datagram network inside one process, for protocol tests without sockets. Each
/// endpoint has a port on a pretend `127.0.0.1`; a datagram is delivered on the receiver's queue.
/// Optional seeded faults drop, duplicate or reorder (hold back behind the next datagram).
package final class InMemoryNetwork: Sendable {
    /// One datagram that was sent, with the clock time it was sent at.
    package struct Record: Sendable {
        package let time: UInt64
        package let from: UInt16
        package let to: UInt16
        package let bytes: [UInt8]
    }

    struct State {
        var endpoints: [UInt16: InMemoryEndpoint] = [:]
        var nextPort: UInt16 = 40000
        var random: SeededRandom
        var faults: FaultInjection
        var held: (InMemoryEndpoint, Datagram)?
        var log: [Record] = []
        var interceptor: (@Sendable (Int, [UInt8]) -> [UInt8]?)?
        /// Ports whose deliveries are held (``holdDeliveries(to:fromIndex:)``): from which log index,
        /// and what came since.
        var holds: [UInt16: (fromIndex: Int, datagrams: [Datagram])] = [:]
    }

    private let state: Mutex<State>
    let clock: any MatterClock

    /// `faults.delayProbability` is used as the reorder probability.
    package init(faults: FaultInjection = FaultInjection(), clock: any MatterClock = SystemClock()) {
        state = Mutex(State(random: SeededRandom(seed: faults.seed), faults: faults))
        self.clock = clock
    }

    /// Changes the faults for datagrams sent from now on.
    package func setFaults(_ faults: FaultInjection) { state.withLock { $0.faults = faults } }

    /// Lets a test see each datagram (by its index in the log) before delivery and replace it
    /// (return new bytes) or drop it (return nil). A man in the middle for negative tests.
    package func setInterceptor(_ interceptor: (@Sendable (Int, [UInt8]) -> [UInt8]?)?) {
        state.withLock { $0.interceptor = interceptor }
    }

    /// Holds the datagrams for `port` whose log index is `fromIndex` or later, until
    /// ``releaseDeliveries(to:)`` hands them over in one turn of the receiver's queue: what a socket
    /// read loop does with datagrams that queued up while its process was busy.
    package func holdDeliveries(to port: UInt16, fromIndex: Int) {
        state.withLock { $0.holds[port] = (fromIndex, []) }
    }

    /// Delivers what ``holdDeliveries(to:fromIndex:)`` held, in order and in one turn; later
    /// datagrams go through as usual.
    package func releaseDeliveries(to port: UInt16) {
        let (endpoint, held) = state.withLock { state in
            (state.endpoints[port], state.holds.removeValue(forKey: port)?.datagrams ?? [])
        }
        endpoint?.deliver(held)
    }

    /// Every datagram sent so far (before faults), in order.
    package var log: [Record] { state.withLock { $0.log } }

    /// A new endpoint whose handlers run on `queue`.
    package func makeEndpoint(queue: DispatchQueue) -> InMemoryEndpoint {
        state.withLock { state in
            let port = state.nextPort
            state.nextPort += 1
            let endpoint = InMemoryEndpoint(network: self, port: port, queue: queue)
            state.endpoints[port] = endpoint
            return endpoint
        }
    }

    func remove(_ port: UInt16) { _ = state.withLock { $0.endpoints.removeValue(forKey: port) } }

    func send(_ bytes: [UInt8], from port: UInt16, to destination: UDPAddress) {
        let now = clock.nowMilliseconds()
        let source = UDPAddress(ip: [127, 0, 0, 1], port: port)
        let deliveries: [(InMemoryEndpoint, Datagram)] = state.withLock { state in
            state.log.append(Record(time: now, from: port, to: destination.port, bytes: bytes))
            var bytes = bytes
            if let interceptor = state.interceptor {
                guard let replaced = interceptor(state.log.count - 1, bytes) else { return [] }
                bytes = replaced
            }
            guard let target = state.endpoints[destination.port] else { return [] }
            let datagram = Datagram(bytes: bytes, source: source, localAddress: destination.ip, interfaceIndex: 1)
            if let hold = state.holds[destination.port], state.log.count - 1 >= hold.fromIndex {
                state.holds[destination.port]?.datagrams.append(datagram)
                return []
            }
            var out: [(InMemoryEndpoint, Datagram)] = []
            switch FaultInjection.fate(state.faults, &state.random) {
            case .drop: return []
            case .deliver: out.append((target, datagram))
            case .duplicate: out += [(target, datagram), (target, datagram)]
            case .delay:
                // Reorder: hold this one back behind the next datagram.
                if let held = state.held { out.append(held) }
                state.held = (target, datagram)
                return out
            }
            if let held = state.held {
                out.append(held)
                state.held = nil
            }
            return out
        }
        for (endpoint, datagram) in deliveries { endpoint.deliver(datagram) }
    }
}

/// An endpoint of an `InMemoryNetwork`.
package final class InMemoryEndpoint: DatagramTransport, @unchecked Sendable {
    // @unchecked: `handler` is written once by `start` before any delivery and read on `queue`.
    package let queue: DispatchQueue
    package let port: UInt16
    private let network: InMemoryNetwork
    private let handler = Mutex<(@Sendable (Datagram) -> Void)?>(nil)

    init(network: InMemoryNetwork, port: UInt16, queue: DispatchQueue) {
        self.network = network
        self.port = port
        self.queue = queue
    }

    /// This endpoint's address on the network.
    package var address: UDPAddress { UDPAddress(ip: [127, 0, 0, 1], port: port) }

    package func start(_ handler: @escaping @Sendable (Datagram) -> Void) { self.handler.withLock { $0 = handler } }

    package func send(_ bytes: [UInt8], to destination: UDPAddress) throws(SocketError) {
        network.send(bytes, from: port, to: destination)
    }

    package func close() {
        handler.withLock { $0 = nil }
        network.remove(port)
    }

    func deliver(_ datagram: Datagram) {
        queue.async { [self] in handler.withLock { $0 }?(datagram) }
    }

    /// Delivers `datagrams` one after the other in one turn of the queue.
    func deliver(_ datagrams: [Datagram]) {
        guard !datagrams.isEmpty else { return }
        queue.async { [self] in
            let handler = handler.withLock { $0 }
            for datagram in datagrams { handler?(datagram) }
        }
    }
}
