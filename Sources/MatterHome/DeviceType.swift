/// A Matter device type (`DimmableLightDeviceType`...) on one endpoint of a device, or a group's part
/// of that type; its traits act on it.
public protocol DeviceType: Sendable {
    /// The Matter device type ID (0x0101 for a dimmable light).
    static var matterDeviceTypeID: UInt32 { get }
    /// The device type on `part` (made by the home).
    init(part: DevicePart)
    /// What its traits act on.
    var part: DevicePart { get }
}

extension DeviceType {
    /// The traits by type: `traits[Matter.OnOffTrait.self]`.
    public var traits: Traits { Traits(part: part) }
    /// The Matter traits by name: `matterTraits.onOffTrait`.
    public var matterTraits: MatterTraits { MatterTraits(part: part) }
}
