/// The Matter Root Node (endpoint 0: BasicInformation) device type (0x0016).
public struct RootNodeDeviceType: DeviceType {
    public static let matterDeviceTypeID: UInt32 = 0x0016
    public let part: DevicePart

    public init(part: DevicePart) { self.part = part }
}
