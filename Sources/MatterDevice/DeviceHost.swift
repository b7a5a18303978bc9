import Foundation
import MatterCore
public import MatterDiscovery
import Synchronization

/// Runs one virtual device and restarts it as the same node: the control plane's `reboot` (ShutDown,
/// sessions dropped, then StartUp and BootReason SoftwareReset) and `factory-reset` (state wiped,
/// then a fresh boot). Control requests go to whichever device is running; they wait while a
/// restart is under way. Its one Avahi client outlives restarts.
///
/// A restart that cannot start the device again starts it once more as it was; when that fails too,
/// the host is down: it logs why, every control request is refused with the reason, and the
/// ``onFailure(_:)`` handlers learn it (the CLI exits non-zero), so it never lingers alive and
/// unreachable.
public final class DeviceHost: Sendable {
    private struct State {
        var device: VirtualDevice
        var configuration: VirtualDeviceConfiguration
        var sink: (@Sendable (DeviceEvent) -> Void)?
        var restart: Task<Result<Void, DeviceError>, Never>?
        var stopped = false
        /// Why the host is down: a restart failed and so did starting the device as it was.
        var failure: DeviceError?
        var failureHandlers: [@Sendable (DeviceError) -> Void] = []
    }

    private let state: Mutex<State>
    private let dnssd: (any DNSSDAdvertiser)?
    private let restartHandlers = Mutex<[@Sendable (VirtualDevice) -> Void]>([])

    private init(device: VirtualDevice, configuration: VirtualDeviceConfiguration, dnssd: (any DNSSDAdvertiser)?) {
        state = Mutex(State(device: device, configuration: configuration))
        self.dnssd = dnssd
    }

    /// Starts the device (see ``VirtualDevice/start(_:clock:dnssd:)``); without `dnssd` and with
    /// advertising on, the host starts an Avahi client of its own (the device works by direct
    /// address when there is none).
    public static func start(_ configuration: VirtualDeviceConfiguration, dnssd: (any DNSSDAdvertiser)? = nil)
        async throws(DeviceError) -> DeviceHost
    {
        var shared = dnssd
        if configuration.advertise, shared == nil {
            do {
                shared = try await configuration.mdns.start(
                    label: "matter-emu.device", publishing: configuration.dnssdPublishing,
                    interface: configuration.interface)
            } catch {
                Logger(label: "device").warning("\(error); the device is reachable by direct address only")
            }
        }
        var first = configuration
        first.advertise = shared != nil
        let device = try await VirtualDevice.start(first, dnssd: shared)
        var kept = first
        kept.factoryReset = false
        kept.port = device.port  // a restart keeps the port a `0` picked
        return DeviceHost(device: device, configuration: kept, dnssd: shared)
    }

    /// The device running now (a new one after each restart).
    public var device: VirtualDevice { state.withLock { $0.device } }

    /// Receives every device event of the running device and of each one after a restart.
    public func onDeviceEvent(_ sink: @escaping @Sendable (DeviceEvent) -> Void) {
        let device = state.withLock {
            $0.sink = sink
            return $0.device
        }
        device.onDeviceEvent(sink)
    }

    /// Called with the new device after each restart.
    public func onRestart(_ handler: @escaping @Sendable (VirtualDevice) -> Void) {
        restartHandlers.withLock { $0.append(handler) }
    }

    /// Answers one control-plane request line (docs/CONTROL.md).
    public func control(_ line: String) async -> String {
        switch VirtualDevice.parseRequest(line) {
        case .success(let request): await control(request: request)
        case .failure(let failure): VirtualDevice.answer(error: failure.message)
        }
    }

    /// Called once if the host goes down (see ``DeviceHost``); at once if it is down already.
    public func onFailure(_ handler: @escaping @Sendable (DeviceError) -> Void) {
        let failure = state.withLock { state -> DeviceError? in
            if state.failure == nil { state.failureHandlers.append(handler) }
            return state.failure
        }
        if let failure { handler(failure) }
    }

    /// Why the host is down, nil while it runs.
    public var failure: DeviceError? { state.withLock { $0.failure } }

    /// Answers one parsed request: `reboot` and `factory-reset` here, everything else by the device.
    func control(request: [String: Any]) async -> String {
        let op = request["op"] as? String ?? ""
        if let failure = state.withLock({ $0.failure }) {
            return VirtualDevice.answer(error: "the device is down: \(failure)")
        }
        switch op {
        case "reboot", "factory-reset":
            var reason = DeviceBootReason.softwareReset
            if let name = request["reason"] {
                guard let text = name as? String, let parsed = DeviceBootReason(name: text) else {
                    return VirtualDevice.answer(
                        error:
                            "\"reason\" must be one of \(DeviceBootReason.allCases.map(\.name).joined(separator: ", "))"
                    )
                }
                reason = parsed
            }
            switch await restart(reason: reason, factoryReset: op == "factory-reset") {
            case .success: return VirtualDevice.answer(["bootReason": reason.name, "port": Int(device.port)])
            case .failure(let error): return VirtualDevice.answer(error: "\(op) failed: \(error)")
            }
        default:
            await waitForRestart()
            return await device.control(request: request)
        }
    }

    /// Restarts the device as the same node: stops it (ShutDown to subscribers, sessions closed),
    /// then starts it again from its state (wiped first with `factoryReset`), with `reason` as its
    /// BootReason. A restart already under way is waited for, not repeated.
    public func restart(reason: DeviceBootReason = .softwareReset, factoryReset: Bool = false) async
        -> Result<Void, DeviceError>
    {
        let (task, isNew) = state.withLock { state -> (Task<Result<Void, DeviceError>, Never>?, Bool) in
            if let running = state.restart { return (running, false) }
            guard !state.stopped, state.failure == nil else { return (nil, false) }
            var configuration = state.configuration
            configuration.bootReason = reason
            configuration.factoryReset = factoryReset
            let old = state.device
            let dnssd = self.dnssd
            let previous = state.configuration
            let task = Task { () -> Result<Void, DeviceError> in
                await old.stop()
                let error: DeviceError
                do throws(DeviceError) {
                    let device = try await VirtualDevice.start(configuration, dnssd: dnssd)
                    self.adopt(device)
                    await device.node.run { _ in device.emit(.rebooted(reason: reason, factoryReset: factoryReset)) }
                    return .success(())
                } catch let failed {
                    error = failed
                }
                let log = Logger(label: "device")
                let what = factoryReset ? "factory reset" : "reboot"
                // The node as it was (never wiped again), so the process is never alive and deaf.
                do throws(DeviceError) {
                    let device = try await VirtualDevice.start(previous, dnssd: dnssd)
                    self.adopt(device)
                    log.error("\(what) failed (\(error)); the device was started again as it was")
                    return .failure(.startup("\(error); the device was started again as it was"))
                } catch let restore {
                    let down = DeviceError.startup("\(error); starting the device again failed too (\(restore))")
                    log.error("\(what) failed: \(down); the device is down")
                    self.fail(down)
                    return .failure(down)
                }
            }
            state.restart = task
            return (task, true)
        }
        guard let task else { return .failure(failure ?? .startup("the device has stopped")) }
        let result = await task.value
        if isNew { state.withLock { $0.restart = nil } }
        return result
    }

    private func adopt(_ device: VirtualDevice) {
        let sink = state.withLock {
            $0.device = device
            return $0.sink
        }
        if let sink { device.onDeviceEvent(sink) }
        for handler in restartHandlers.withLock({ $0 }) { handler(device) }
    }

    private func fail(_ error: DeviceError) {
        let handlers = state.withLock { state -> [@Sendable (DeviceError) -> Void] in
            state.failure = error
            defer { state.failureHandlers = [] }
            return state.failureHandlers
        }
        for handler in handlers { handler(error) }
    }

    private func waitForRestart() async {
        if let task = state.withLock({ $0.restart }) { _ = await task.value }
    }

    /// Stops the device (after a restart under way); the host does not start it again.
    public func stop() async {
        await waitForRestart()
        let (device, failed) = state.withLock {
            $0.stopped = true
            return ($0.device, $0.failure != nil)
        }
        if !failed { await device.stop() }  // a host that is down has no device running
    }
}
