import Dispatch
import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Catches SIGINT and SIGTERM from the moment it is created (so a signal during start-up is not
/// fatal) and lets a command wait for the first of them, or for a failure that ends the command.
final class SignalWaiter: @unchecked Sendable {
    // @unchecked: `sources` is written once in init and only kept alive; the rest is in the Mutex.
    private struct State {
        var fired = false
        var failure: (any Error)?
        var continuation: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())
    private var sources: [any DispatchSourceSignal] = []

    init() {
        let queue = DispatchQueue(label: "matter-emu.signals")
        for signal in [SIGINT, SIGTERM] {
            Glibc.signal(signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
            source.setEventHandler { [weak self] in self?.fire() }
            source.resume()
            sources.append(source)
        }
    }

    private func fire() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.fired = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }

    /// Ends the wait as a signal would, with `error` for ``wait()`` to return (the first one counts).
    func stop(because error: any Error) {
        state.withLock { if $0.failure == nil { $0.failure = error } }
        fire()
    }

    /// Returns once SIGINT or SIGTERM arrived (at once if one already did), or ``stop(because:)`` was
    /// called: then with its error.
    @discardableResult
    func wait() async -> (any Error)? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.fired { return true }
                state.continuation = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
        return state.withLock { $0.failure }
    }
}
