package import MatterClusters
package import MatterCore

/// A device type a virtual device can be: an application endpoint (1) over an endpoint-0 skeleton (Root Node
/// device type, Descriptor, BasicInformation) onto which a device adds its root-node clusters.
///
/// The catalogue (``all``) is read from the generated data model (``DeviceTypeSchema/all``): every simple
/// device type of Matter 1.5 whose mandatory server clusters can be served, named as `--type` takes it (the
/// specification's name in kebab case: `temperature-sensor`, `on-off-plug-in-unit`). Each endpoint carries the
/// mandatory server clusters of its device type with the features the device type requires (and the first
/// feature of every choice group the cluster needs one of): the project's behaviour-rich servers where they
/// exist (OnOff, LevelControl, ColorControl, DoorLock, Identify, Groups, ScenesManagement), else
/// ``GenericClusterServer`` over the cluster's schema. A type made of other device types has its parts too
/// (``composition(_:)``: on endpoints of their own, or beside it for utility parts). Not served: controllers
/// (whose mandatory clusters are clients of clusters no Binding or session of theirs sends), Thread
/// infrastructure and the utility types (``notServed`` says why for each).
///
/// The six first presets keep their product IDs 0x8001...0x8006 and their committed test DACs; every other
/// type's product ID is 0x8000 + its device-type ID (`temperature-sensor`: 0x8302).
///
/// | preset | device type | product ID | endpoint 1 servers |
/// |---|---|---|---|
/// | `on-off-light` | On/Off Light 0x0100 | 0x8001 | Identify, Groups, ScenesManagement, OnOff |
/// | `dimmable-light` | Dimmable Light 0x0101 | 0x8002 | + LevelControl |
/// | `color-temperature-light` | Color Temperature Light 0x010C | 0x8003 | + ColorControl (CT) |
/// | `extended-color-light` | Extended Color Light 0x010D | 0x8004 | + ColorControl (CT, XY) |
/// | `on-off-plug-in-unit` (`on-off-plug`) | On/Off Plug-in Unit 0x010A | 0x8005 | Identify, Groups, ScenesManagement, OnOff |
/// | `door-lock` | Door Lock 0x000A | 0x8006 | Identify, DoorLock |
///
/// Every endpoint also gets its Descriptor from the data model.
package struct DevicePreset: Hashable, Sendable, CustomStringConvertible {
    /// The device type's schema, generated from the specification.
    package let schema: DeviceTypeSchema
    /// The default ProductID.
    package let productID: ProductID
    /// A human name for BasicInformation.ProductName.
    package let productName: String

    init(_ schema: DeviceTypeSchema, productID: ProductID? = nil, productName: String? = nil) {
        self.schema = schema
        self.productID = productID ?? ProductID(UInt16(truncatingIfNeeded: 0x8000 + schema.id))
        self.productName = productName ?? Self.words(schema.name)
    }

    package static let onOffLight = DevicePreset(.onOffLight, productID: ProductID(0x8001), productName: "On/Off Light")
    package static let dimmableLight = DevicePreset(
        .dimmableLight, productID: ProductID(0x8002), productName: "Dimmable Light")
    package static let colorTemperatureLight = DevicePreset(
        .colorTemperatureLight, productID: ProductID(0x8003), productName: "Color Temperature Light")
    package static let extendedColorLight = DevicePreset(
        .extendedColorLight, productID: ProductID(0x8004), productName: "Extended Color Light")
    package static let onOffPlug = DevicePreset(
        .onOffPlugInUnit, productID: ProductID(0x8005), productName: "On/Off Plug-in Unit")
    package static let doorLock = DevicePreset(.doorLock, productID: ProductID(0x8006), productName: "Door Lock")

    /// The names the first releases used, still accepted by `--type`.
    package static let aliases: [String: String] = ["on-off-plug": "on-off-plug-in-unit", "bridge": "aggregator"]

    /// Every device type a virtual device can be, the six first presets first, then the others in device-type-ID
    /// order.
    package static let all: [DevicePreset] = {
        let first: [DevicePreset] = [
            .onOffLight, .dimmableLight, .colorTemperatureLight, .extendedColorLight, .onOffPlug, .doorLock,
        ]
        let taken = Set(first.map(\.schema.id))
        let others = DeviceTypeSchema.all.filter { !taken.contains($0.id) && notServed($0) == nil }
            .sorted { $0.id < $1.id }.map { DevicePreset($0) }
        return first + others
    }()

    /// The preset named `name` on the command line (the kebab-case name, an alias, or the specification's
    /// PascalCase name); throws ``DataModelError/unknownPreset(_:)`` listing the valid names, or saying why a
    /// device type of the specification is not served.
    package init(cliName name: String) throws(DataModelError) {
        let key = Self.aliases[name] ?? name
        if let preset = Self.all.first(where: { $0.cliName == key }) {
            self = preset
            return
        }
        if let schema = DeviceTypeSchema.named(key), let preset = Self.all.first(where: { $0.schema == schema }) {
            self = preset
            return
        }
        if let schema = DeviceTypeSchema.named(key), let reason = Self.notServed(schema) {
            throw .unservedDeviceType(schema.cliName, reason: reason)
        }
        throw .unknownPreset(name)
    }

    /// The name on the command line (`dimmable-light`).
    package var cliName: String { schema.cliName }

    package var description: String { cliName }

    /// The device type of endpoint 1.
    package var deviceType: DeviceType { DeviceType(DeviceTypeID(schema.id), revision: schema.revision) }

    /// The BasicInformation configuration for this preset (product name and ID set; adjust the rest).
    package var defaultInformation: BasicInformationServer.Configuration {
        BasicInformationServer.Configuration(productName: productName, productID: productID)
    }

    /// Endpoint 0 (skeleton with `information`) and the application endpoints from 1: the device's own and the
    /// parts it is composed of (``makeApplicationEndpoints(from:)``).
    package func makeEndpoints(information: BasicInformationServer.Configuration? = nil) -> [Endpoint] {
        [Endpoint.rootNode(information: information ?? defaultInformation)] + makeApplicationEndpoints()
    }

    /// `TemperatureSensor` → `Temperature Sensor`, `OnOffSensor` → `On/Off Sensor`.
    static func words(_ name: String) -> String {
        var words: [String] = []
        for word in SchemaNames.kebabCase(name).split(separator: "-") {
            let capitalized = word.prefix(1).uppercased() + word.dropFirst()
            if capitalized == "Off", words.last == "On" {
                words[words.count - 1] = "On/Off"
            } else {
                words.append(capitalized)
            }
        }
        return words.joined(separator: " ")
    }
}

extension Endpoint {
    /// The endpoint-0 skeleton: Root Node device type with BasicInformation from `information` (the
    /// data model adds the Descriptor). A device adds its root-node clusters (GeneralCommissioning,
    /// OperationalCredentials, AccessControl...) with ``add(_:)``.
    package static func rootNode(information: BasicInformationServer.Configuration) -> Endpoint {
        let endpoint = Endpoint(.root, deviceTypes: [.rootNode])
        endpoint.insert(BasicInformationServer(configuration: information))
        return endpoint
    }
}
