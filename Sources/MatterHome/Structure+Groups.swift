import MatterStorage

extension Structure {
    /// Every device group, by name.
    public func deviceGroups() async throws(HomeError) -> [DeviceGroup] {
        do { return try home.store.groups().map { DeviceGroup(home: home, stored: $0) } } catch {
            throw HomeError(error)
        }
    }

    /// Creates a group of `devices` (each device's application endpoints).
    /// - Throws: `invalidArgument` when the name is empty or taken by a device or group.
    public func createDeviceGroup(name: String, devices: some Sequence<HomeDevice>) async throws(HomeError)
        -> DeviceGroup
    {
        let group: ControllerGroup?
        do throws(StorageError) {
            try home.store.createGroup(name)
            for device in devices {
                for endpoint in device.endpoints {
                    try home.store.addToGroup(name, nodeID: device.nodeID, endpoint: endpoint)
                }
            }
            group = try home.store.group(named: name)
        } catch {
            throw HomeError(error)
        }
        guard let group else { throw HomeError(.storage, "group \"\(name)\" vanished from the store") }
        return DeviceGroup(home: home, stored: group)
    }

    /// Deletes a group (its devices stay).
    public func deleteDeviceGroup(_ group: DeviceGroup) async throws(HomeError) {
        do { try home.store.deleteGroup(group.name) } catch { throw HomeError(error) }
    }
}
