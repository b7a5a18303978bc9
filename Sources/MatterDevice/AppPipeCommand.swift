/// The connectedhomeip example apps' named-pipe commands (`--app-pipe`), as control-plane requests.
///
/// Two shapes: the lock app's `{"Cmd":"SendDoorLockAlarm","Params":{"EndpointId":1,"AlarmCode":0}}`
/// and the all-clusters app's `{"Name":"HardwareFaultChange"}` (fields beside `Name`). Commands for
/// clusters our device types lack (Switch presses, occupancy, door position, radio and network
/// faults) are refused with the reason.
enum AppPipeCommand {
    /// The control request `command` stands for, or why there is none.
    static func request(for command: [String: Any]) -> Result<[String: Any], ControlFailure> {
        let name: String
        let params: [String: Any]
        if let cmd = command["Cmd"] as? String {
            name = cmd
            let given: Any = command["Params"] ?? [String: Any]()
            guard let object = given as? [String: Any] else {
                return .failure(ControlFailure("\"Params\" must be a JSON object"))
            }
            params = object
        } else if let named = command["Name"] as? String {
            name = named
            params = command
        } else {
            return .failure(ControlFailure("a pipe command has a \"Cmd\" (with \"Params\") or a \"Name\""))
        }
        let endpoint = params["EndpointId"] ?? 1
        func number(_ key: String) -> Result<Int, ControlFailure> {
            guard let value = VirtualDevice.integer(params[key]), value >= 0 else {
                return .failure(ControlFailure("\(name) needs \"\(key)\", an unsigned integer"))
            }
            return .success(value)
        }
        func set(_ cluster: String, _ attribute: String, _ value: Any) -> [String: Any] {
            ["op": "set", "endpoint": endpoint, "cluster": cluster, "attribute": attribute, "value": value]
        }
        switch name {
        case "SendDoorLockAlarm":
            return number("AlarmCode").map { code in
                code == 0
                    ? ["op": "jam", "endpoint": endpoint]
                    : [
                        "op": "event", "endpoint": endpoint, "cluster": "DoorLock", "event": "DoorLockAlarm",
                        "fields": ["alarmCode": code],
                    ]
            }
        case "Lock": return .success(set("DoorLock", "LockState", 1))
        case "Unlock": return .success(set("DoorLock", "LockState", 2))
        case "Lockstate": return number("lockstate").map { set("DoorLock", "LockState", $0) }
        case "Onoff": return number("onoff").map { set("OnOff", "OnOff", $0 > 0) }
        case "Level": return number("level").map { set("LevelControl", "CurrentLevel", $0) }
        case "Colortemp": return number("colortemp").map { set("ColorControl", "ColorTemperatureMireds", $0) }
        case "HardwareFaultChange":
            // The all-clusters app's fixed set: Radio, Sensor, PowerSource, UserInterfaceFault.
            return .success(["op": "hardware-fault", "current": [1, 2, 5, 8]])
        case "SetDoorState": return .success(["op": "door-state"])
        case let reboot where DeviceBootReason(name: reboot) != nil:
            return .success(["op": "reboot", "reason": reboot])
        case "SimulateMultiPress":
            return number("MultiPressNumPresses").map { ["op": "multi-press", "endpoint": endpoint, "count": $0] }
        case "SimulateLongPress":
            // Held for the delay before LongPress plus the time after it, as the SDK's app plays it.
            return number("LongPressDelayMillis").flatMap { delay in
                number("LongPressDurationMillis").map { duration in
                    ["op": "long-press", "endpoint": endpoint, "seconds": Double(delay + duration) / 1000]
                }
            }
        case "SwitchLatched":
            return number("NewPosition").map { ["op": "switch", "endpoint": endpoint, "position": $0] }
        case "SimulateActionSwitchLongPress", "SimulateActionSwitchMultiPress", "SimulateSwitchIdle",
            "InitialPress", "LongPress", "ShortRelease", "LongRelease", "MultiPressOngoing", "MultiPressComplete":
            return .failure(
                ControlFailure(
                    "\(name): play presses whole with SimulateMultiPress, SimulateLongPress or SwitchLatched"))
        case "SetOccupancy", "Occupancy", "Measurement", "Bool":
            return .success(["op": "sensor"])
        case "RadioFaultChange", "NetworkFaultChange", "SoftwareFault":
            return .failure(ControlFailure("\(name): our GeneralDiagnostics has no such event (Ethernet devices)"))
        default:
            return .failure(ControlFailure("unknown pipe command \"\(name)\""))
        }
    }
}
