/// The Home API's spellings of device types whose specification names differ ("Plug-in" is one word there).
public typealias OnOffPluginUnitDeviceType = OnOffPlugInUnitDeviceType
public typealias DimmablePluginUnitDeviceType = DimmablePlugInUnitDeviceType

extension Matter.DoorLockTrait {
    /// LockState's values under the Home API's name (`DlLockState`, the cluster's name before Matter 1.3).
    public typealias DlLockState = LockStateEnum
}
