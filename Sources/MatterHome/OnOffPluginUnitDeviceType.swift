/// The Matter On/Off Plug-in Unit device type (0x010A).
public struct OnOffPluginUnitDeviceType: DeviceType {
    public static let matterDeviceTypeID: UInt32 = 0x010A
    public let part: DevicePart

    public init(part: DevicePart) { self.part = part }
}
