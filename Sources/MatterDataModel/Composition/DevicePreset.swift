import MatterClusters
public import MatterCore

/// The ready-made devices, each an application endpoint (1) over an endpoint-0 skeleton (Root Node
/// device type, Descriptor, BasicInformation) onto which a device adds its root-node clusters.
///
/// | preset | device type | product ID | endpoint 1 servers |
/// |---|---|---|---|
/// | `on-off-light` | On/Off Light 0x0100 | 0x8001 | Identify, Groups, ScenesManagement, OnOff |
/// | `dimmable-light` | Dimmable Light 0x0101 | 0x8002 | + LevelControl |
/// | `color-temperature-light` | Color Temperature Light 0x010C | 0x8003 | + ColorControl (CT) |
/// | `extended-color-light` | Extended Color Light 0x010D | 0x8004 | + ColorControl (CT, XY) |
/// | `on-off-plug` | On/Off Plug-in Unit 0x010A | 0x8005 | Identify, Groups, ScenesManagement, OnOff |
/// | `door-lock` | Door Lock 0x000A | 0x8006 | Identify, DoorLock |
///
/// Every endpoint also gets its Descriptor from the data model.
public enum DevicePreset: String, CaseIterable, Sendable {
    case onOffLight = "on-off-light"
    case dimmableLight = "dimmable-light"
    case colorTemperatureLight = "color-temperature-light"
    case extendedColorLight = "extended-color-light"
    case onOffPlug = "on-off-plug"
    case doorLock = "door-lock"

    /// The preset named `name` on the command line; throws ``DataModelError/unknownPreset(_:)``
    /// listing the valid names.
    public init(cliName name: String) throws(DataModelError) {
        guard let preset = DevicePreset(rawValue: name) else { throw .unknownPreset(name) }
        self = preset
    }

    /// The name on the command line (`dimmable-light`).
    public var cliName: String { rawValue }

    /// The device type of endpoint 1.
    public var deviceType: DeviceType {
        switch self {
        case .onOffLight: .onOffLight
        case .dimmableLight: .dimmableLight
        case .colorTemperatureLight: .colorTemperatureLight
        case .extendedColorLight: .extendedColorLight
        case .onOffPlug: .onOffPlugInUnit
        case .doorLock: .doorLock
        }
    }

    /// The default ProductID (0x8001...0x8006, in declaration order).
    public var productID: ProductID {
        switch self {
        case .onOffLight: ProductID(0x8001)
        case .dimmableLight: ProductID(0x8002)
        case .colorTemperatureLight: ProductID(0x8003)
        case .extendedColorLight: ProductID(0x8004)
        case .onOffPlug: ProductID(0x8005)
        case .doorLock: ProductID(0x8006)
        }
    }

    /// A human name for BasicInformation.ProductName.
    public var productName: String {
        switch self {
        case .onOffLight: "On/Off Light"
        case .dimmableLight: "Dimmable Light"
        case .colorTemperatureLight: "Color Temperature Light"
        case .extendedColorLight: "Extended Color Light"
        case .onOffPlug: "On/Off Plug-in Unit"
        case .doorLock: "Door Lock"
        }
    }

    /// The BasicInformation configuration for this preset (product name and ID set; adjust the rest).
    public var defaultInformation: BasicInformationServer.Configuration {
        BasicInformationServer.Configuration(productName: productName, productID: productID)
    }

    /// Endpoint `id` with the preset's device type and application servers (fresh instances).
    public func makeApplicationEndpoint(_ id: EndpointID = EndpointID(1)) -> Endpoint {
        let endpoint = Endpoint(id, deviceTypes: [deviceType])
        for server in makeServers() { endpoint.insert(server) }
        return endpoint
    }

    /// Endpoint 0 (skeleton with `information`) and endpoint 1.
    public func makeEndpoints(information: BasicInformationServer.Configuration? = nil) -> [Endpoint] {
        [Endpoint.rootNode(information: information ?? defaultInformation), makeApplicationEndpoint()]
    }

    private func makeServers() -> [ClusterServer] {
        let lightOutput = IdentifyServer(identifyType: .lightOutput)
        switch self {
        case .onOffLight:
            return [lightOutput, GroupsServer(), ScenesManagementServer(), OnOffServer()]
        case .dimmableLight:
            return [lightOutput, GroupsServer(), ScenesManagementServer(), OnOffServer(), LevelControlServer()]
        case .colorTemperatureLight:
            return [
                lightOutput, GroupsServer(), ScenesManagementServer(), OnOffServer(), LevelControlServer(),
                ColorControlServer(),
            ]
        case .extendedColorLight:
            return [
                lightOutput, GroupsServer(), ScenesManagementServer(), OnOffServer(), LevelControlServer(),
                ColorControlServer(configuration: ColorControlServer.Configuration(xy: true)),
            ]
        case .onOffPlug:
            return [
                IdentifyServer(identifyType: .visibleIndicator), GroupsServer(), ScenesManagementServer(),
                OnOffServer(),
            ]
        case .doorLock:
            return [IdentifyServer(identifyType: .audibleBeep), DoorLockServer()]
        }
    }
}

extension Endpoint {
    /// The endpoint-0 skeleton: Root Node device type with BasicInformation from `information` (the
    /// data model adds the Descriptor). A device adds its root-node clusters (GeneralCommissioning,
    /// OperationalCredentials, AccessControl...) with ``add(_:)``.
    public static func rootNode(information: BasicInformationServer.Configuration) -> Endpoint {
        let endpoint = Endpoint(.root, deviceTypes: [.rootNode])
        endpoint.insert(BasicInformationServer(configuration: information))
        return endpoint
    }
}
