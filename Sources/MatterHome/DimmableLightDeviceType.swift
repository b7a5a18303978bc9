/// The Matter Dimmable Light device type (0x0101).
public struct DimmableLightDeviceType: DeviceType {
    public static let matterDeviceTypeID: UInt32 = 0x0101
    public let part: DevicePart

    public init(part: DevicePart) { self.part = part }
}
