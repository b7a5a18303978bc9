/// The Matter Door Lock device type (0x000A).
public struct DoorLockDeviceType: DeviceType {
    public static let matterDeviceTypeID: UInt32 = 0x000A
    public let part: DevicePart

    public init(part: DevicePart) { self.part = part }
}
