import Foundation
import MatterClusters
import MatterCore
import MatterDataModel
import MatterTransport

extension Fleet {
    /// Answers one control-plane request for the fleet (docs/CONTROL.md): every request names its
    /// device, `"device": 3` (index) or `"device": "Kitchen 2"` (node label), and goes to that device
    /// as a device's own control socket would take it; `{"op":"devices"}` lists them. A request naming
    /// no device, or one the fleet lacks, changes nothing.
    public func control(_ line: String) async -> String {
        let request: [String: Any]
        switch VirtualDevice.parseRequest(line) {
        case .success(let parsed): request = parsed
        case .failure(let failure): return VirtualDevice.answer(error: failure.message)
        }
        if request["op"] as? String == "devices" { return await list() }
        guard let selector = request["device"] else {
            return VirtualDevice.answer(error: "a fleet request names its \"device\" (an index or a node label)")
        }
        let host: DeviceHost
        switch await select(selector) {
        case .success(let selected): host = selected
        case .failure(let failure): return VirtualDevice.answer(error: failure.message)
        }
        var forwarded = request
        forwarded["device"] = nil
        return await host.control(request: forwarded)
    }

    /// The host `selector` names: an index (number) or a node label (string) exactly one device has.
    /// A label two devices share is refused as ambiguous (naming both), never sent to the first.
    func select(_ selector: Any) async -> Result<DeviceHost, ControlFailure> {
        let missing = ControlFailure(
            "the fleet has no device \(VirtualDevice.cliText(selector)) (indexes 0...\(hosts.count - 1), or a node label)"
        )
        if let number = VirtualDevice.integer(selector) {
            return hosts.indices.contains(number) ? .success(hosts[number]) : .failure(missing)
        }
        guard let label = selector as? String, !label.isEmpty else { return .failure(missing) }
        var matches: [Int] = []
        for (index, host) in hosts.enumerated() where await host.device.nodeLabel() == label { matches.append(index) }
        switch matches.count {
        case 0: return .failure(missing)
        case 1: return .success(hosts[matches[0]])
        default:
            let list = matches.map(String.init).joined(separator: ", ")
            return .failure(
                ControlFailure(
                    "the label \(VirtualDevice.cliText(selector)) is ambiguous: devices \(list) have it; name the device by its index"
                ))
        }
    }

    private func list() async -> String {
        var rows: [[String: Any]] = []
        for (index, host) in hosts.enumerated() {
            let device = host.device
            rows.append([
                "device": index, "type": device.configuration.deviceType, "port": Int(device.port),
                "label": await device.nodeLabel(), "online": device.isOnline,
            ])
        }
        return VirtualDevice.answer(["devices": rows])
    }
}

extension VirtualDevice {
    /// BasicInformation NodeLabel now.
    public func nodeLabel() async -> String {
        return await node.run { node in
            dataModel.value(in: node).cluster(BasicInformationServer.self, on: .root)?.nodeLabel ?? ""
        }
    }
}
