/// Something made of device-type parts (a ``DeviceGroup``).
public protocol HasParts: Sendable {
    /// The first part of device type `type`, or nil.
    func part<T: DeviceType>(_ type: T.Type) async -> T?
    /// Every top-level part of device type `type`.
    func parts<T: DeviceType>(_ type: T.Type) async throws(HomeError) -> [T]
}
