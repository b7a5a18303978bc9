package import Dispatch
import MatterCore
import Synchronization

/// Seeded network faults for tests and for users testing their own controllers: each datagram, in
/// either direction, is dropped, duplicated or delayed with the given probabilities. Off by default.
public struct FaultInjection: Sendable, Equatable {
    public var dropProbability: Double
    public var duplicateProbability: Double
    public var delayProbability: Double
    /// How long a delayed datagram is held, milliseconds (real time).
    public var delayMilliseconds: Int
    public var seed: UInt64

    public init(
        drop: Double = 0, duplicate: Double = 0, delay: Double = 0, delayMilliseconds: Int = 50, seed: UInt64 = 1
    ) {
        dropProbability = drop
        duplicateProbability = duplicate
        delayProbability = delay
        self.delayMilliseconds = delayMilliseconds
        self.seed = seed
    }

    /// True when no fault is configured.
    public var isNone: Bool { dropProbability == 0 && duplicateProbability == 0 && delayProbability == 0 }

    enum Fate: Equatable { case deliver, drop, duplicate, delay }

    static func fate(_ faults: FaultInjection, _ random: inout SeededRandom) -> Fate {
        if random.chance(faults.dropProbability) { return .drop }
        if random.chance(faults.duplicateProbability) { return .duplicate }
        if random.chance(faults.delayProbability) { return .delay }
        return .deliver
    }
}

/// Wraps a transport and applies `FaultInjection` to what it sends and receives.
package final class FaultInjectingTransport: DatagramTransport {
    let inner: any DatagramTransport
    let faults: FaultInjection
    private let random: Mutex<SeededRandom>
    private let drops = Atomic<Int>(0)

    /// Datagrams dropped on purpose so far, both directions.
    package var injectedDrops: Int { drops.load(ordering: .relaxed) }

    package init(_ inner: any DatagramTransport, faults: FaultInjection) {
        self.inner = inner
        self.faults = faults
        random = Mutex(SeededRandom(seed: faults.seed))
    }

    package var queue: DispatchQueue { inner.queue }
    package var port: UInt16 { inner.port }

    private func fate() -> FaultInjection.Fate {
        random.withLock { FaultInjection.fate(faults, &$0) }
    }

    package func onPortUnreachable(_ handler: @escaping @Sendable (UDPAddress) -> Void) {
        inner.onPortUnreachable(handler)
    }

    package func start(_ handler: @escaping @Sendable (Datagram) -> Void) {
        inner.start { [self] datagram in
            switch fate() {
            case .deliver: handler(datagram)
            case .drop: drops.add(1, ordering: .relaxed)
            case .duplicate:
                handler(datagram)
                handler(datagram)
            case .delay:
                queue.asyncAfter(deadline: .now() + .milliseconds(faults.delayMilliseconds)) { handler(datagram) }
            }
        }
    }

    package func send(_ bytes: [UInt8], to destination: UDPAddress) throws(SocketError) {
        switch fate() {
        case .deliver: try inner.send(bytes, to: destination)
        case .drop: drops.add(1, ordering: .relaxed)
        case .duplicate:
            try inner.send(bytes, to: destination)
            try inner.send(bytes, to: destination)
        case .delay:
            let inner = self.inner
            queue.asyncAfter(deadline: .now() + .milliseconds(faults.delayMilliseconds)) {
                try? inner.send(bytes, to: destination)
            }
        }
    }

    package func close() { inner.close() }
}
