public import MatterCore

/// Names of the device types this project knows (`clusters.md` §16), for display.
public enum DeviceTypeNames {
    static let names: [UInt32: String] = [
        0x0016: "Root Node", 0x0100: "On/Off Light", 0x0101: "Dimmable Light", 0x010C: "Color Temperature Light",
        0x010D: "Extended Color Light", 0x010A: "On/Off Plug-in Unit", 0x000A: "Door Lock",
    ]

    /// The device type's name, or its ID in hex.
    public static func name(of deviceType: DeviceTypeID) -> String {
        names[deviceType.rawValue] ?? "device type \(deviceType)"
    }
}
