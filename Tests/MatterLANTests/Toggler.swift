import Foundation
import MatterTestSupport

/// Toggles node 1 and reads the state back, over and over on its own thread, until stopped: what a
/// controller does to a device under attack.
// @unchecked Sendable: its thread and the test share `tally` and `stopping` under `lock`.
final class Toggler: @unchecked Sendable {
    struct Tally {
        var succeeded = 0
        var failed = 0
        var readsOK = 0
        var readsBad = 0
        var latenciesMS: [Int] = []
        var errors: [String] = []
    }

    private let fixture: HostileFixture
    private let lock = NSLock()
    private var tally = Tally()
    private var stopping = false
    private let done = DispatchSemaphore(value: 0)

    init(fixture: HostileFixture) { self.fixture = fixture }

    private var shouldStop: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    private func record(_ change: (inout Tally) -> Void) {
        lock.lock()
        change(&tally)
        lock.unlock()
    }

    func start() {
        Thread.detachNewThread { [self] in
            run()
            done.signal()
        }
    }

    /// Stops after the toggle in flight and returns the tally.
    func stop() -> Tally {
        lock.lock()
        stopping = true
        lock.unlock()
        done.wait()
        lock.lock()
        defer { lock.unlock() }
        return tally
    }

    private func run() {
        var expected: Bool?
        while expected == nil && !shouldStop { expected = try? fixture.readOnOff() }
        while !shouldStop {
            let started = Date()
            let result = try? fixture.toggleResult()
            let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
            if let result, result.exitCode == 0 {
                record {
                    $0.succeeded += 1
                    $0.latenciesMS.append(milliseconds)
                }
                expected = expected.map { !$0 }
                let state = try? fixture.readOnOff()
                if let state, state == expected {
                    record { $0.readsOK += 1 }
                } else {
                    record {
                        $0.readsBad += 1
                        $0.errors.append(
                            "read-back \(String(describing: state)), expected \(String(describing: expected))")
                    }
                    if let state { expected = state }
                }
            } else {
                record {
                    $0.failed += 1
                    $0.errors.append(
                        result.map { "toggle exit \($0.exitCode): \($0.stderr.suffix(200))" }
                            ?? "toggle: matter-emu did not start")
                }
                if let state = try? fixture.readOnOff() { expected = state }
            }
        }
    }
}
