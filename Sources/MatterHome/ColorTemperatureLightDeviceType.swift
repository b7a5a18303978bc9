/// The Matter Color Temperature Light device type (0x010C).
public struct ColorTemperatureLightDeviceType: DeviceType {
    public static let matterDeviceTypeID: UInt32 = 0x010C
    public let part: DevicePart

    public init(part: DevicePart) { self.part = part }
}
