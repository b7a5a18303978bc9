import Foundation

extension DeviceHost {
    /// Handles one `--app-pipe` line (an SDK example app's JSON command, ``AppPipeCommand``) and
    /// returns the control-plane answer, for the log: the pipe has no way back.
    public func appPipeCommand(_ line: String) async -> String {
        switch AppPipeCommand.parse(line) {
        case .success(let request): await control(request: request)
        case .failure(let failure): VirtualDevice.answer(error: failure.message)
        }
    }
}

extension Fleet {
    /// Handles one `--app-pipe` line for the fleet: the SDK's command plus `"device"` (an index or
    /// a node label) naming its device.
    public func appPipeCommand(_ line: String) async -> String {
        let object: [String: Any]
        switch VirtualDevice.parseObject(line) {
        case .success(let parsed): object = parsed
        case .failure(let failure): return VirtualDevice.answer(error: failure.message)
        }
        guard let selector = object["device"] else {
            return VirtualDevice.answer(error: "a fleet pipe command names its \"device\" (an index or a node label)")
        }
        let host: DeviceHost
        switch await select(selector) {
        case .success(let selected): host = selected
        case .failure(let failure): return VirtualDevice.answer(error: failure.message)
        }
        switch AppPipeCommand.request(for: object) {
        case .success(let request): return await host.control(request: request)
        case .failure(let failure): return VirtualDevice.answer(error: failure.message)
        }
    }
}

extension AppPipeCommand {
    /// One pipe line as a control request.
    static func parse(_ line: String) -> Result<[String: Any], ControlFailure> {
        VirtualDevice.parseObject(line).flatMap { request(for: $0) }
    }
}
