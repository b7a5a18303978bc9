import Dispatch
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Suspends until SIGINT or SIGTERM arrives.
enum SignalWaiter {
    static func waitForTermination() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let queue = DispatchQueue(label: "matter-emu.signals")
            let state = SignalState(continuation)
            for signal in [SIGINT, SIGTERM] {
                Glibc.signal(signal, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
                source.setEventHandler { state.fire() }
                source.resume()
                state.keep(source)
            }
        }
    }
}

/// Resumes the waiter once; keeps the signal sources alive meanwhile. Used only on its queue.
private final class SignalState: @unchecked Sendable {
    private var continuation: CheckedContinuation<Void, Never>?
    private var sources: [any DispatchSourceSignal] = []

    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }

    func keep(_ source: any DispatchSourceSignal) { sources.append(source) }

    func fire() {
        continuation?.resume()
        continuation = nil
    }
}
