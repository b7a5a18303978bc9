import MatterDevice

/// The devices `--http` serves, a `device` process's one or a fleet's, and the control plane they are
/// moved through: every change the HTTP API makes is a control-plane request (docs/CONTROL.md), so it
/// enters the node as `ctl` would.
struct WebNodes: Sendable {
    let hosts: [DeviceHost]
    /// A fleet names its device in each request; a single device takes none.
    let isFleet: Bool
    /// The process's control-plane entry (`DeviceHost.control` or `Fleet.control`).
    let control: @Sendable (String) async -> String

    /// Sends `request` (a JSON object with an `op`) to device `index` through the control plane.
    func control(device index: Int, _ request: [String: Any]) async -> String {
        var request = request
        request["device"] = isFleet ? index : nil
        return await control(ControlJSON.serialize(request))
    }
}
