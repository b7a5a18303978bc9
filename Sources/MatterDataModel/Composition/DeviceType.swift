package import MatterCore

/// A device type an endpoint implements, as the Descriptor's DeviceTypeList reports it
/// (DeviceTypeStruct {0 DeviceType, 1 Revision}).
package struct DeviceType: Hashable, Sendable, CustomStringConvertible {
    package var id: DeviceTypeID
    package var revision: UInt16

    package init(_ id: DeviceTypeID, revision: UInt16) {
        self.id = id
        self.revision = revision
    }

    /// Root Node 0x0016 (rev 4, Matter 1.5), endpoint 0 of every node.
    package static let rootNode = DeviceType(DeviceTypeID(0x0016), revision: 4)
    /// On/Off Light 0x0100 (rev 3; Matter 1.5 made its Scenes Management mandatory without a new
    /// revision).
    package static let onOffLight = DeviceType(DeviceTypeID(0x0100), revision: 3)
    /// Dimmable Light 0x0101 (rev 3).
    package static let dimmableLight = DeviceType(DeviceTypeID(0x0101), revision: 3)
    /// Color Temperature Light 0x010C (rev 4).
    package static let colorTemperatureLight = DeviceType(DeviceTypeID(0x010C), revision: 4)
    /// Extended Color Light 0x010D (rev 4).
    package static let extendedColorLight = DeviceType(DeviceTypeID(0x010D), revision: 4)
    /// On/Off Plug-in Unit 0x010A (rev 4, Matter 1.5: Scenes Management mandatory, as on the lights).
    package static let onOffPlugInUnit = DeviceType(DeviceTypeID(0x010A), revision: 4)
    /// Door Lock 0x000A (rev 3).
    package static let doorLock = DeviceType(DeviceTypeID(0x000A), revision: 3)

    package var description: String { "\(id) rev \(revision)" }
}
