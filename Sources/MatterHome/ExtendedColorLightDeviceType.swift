/// The Matter Extended Color Light device type (0x010D).
public struct ExtendedColorLightDeviceType: DeviceType {
    public static let matterDeviceTypeID: UInt32 = 0x010D
    public let part: DevicePart

    public init(part: DevicePart) { self.part = part }
}
