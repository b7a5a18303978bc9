/// The Matter On/Off Light device type (0x0100).
public struct OnOffLightDeviceType: DeviceType {
    public static let matterDeviceTypeID: UInt32 = 0x0100
    public let part: DevicePart

    public init(part: DevicePart) { self.part = part }
}
