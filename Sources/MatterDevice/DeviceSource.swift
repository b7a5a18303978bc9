import MatterCore
import MatterDataModel

/// What a virtual device is made of: a device type of the catalogue (its endpoints composed from the model, a test
/// DAC of its own), or the twin of a recorded device (the recording's endpoints, identity and attestation).
enum DeviceSource: Sendable {
    case preset(DevicePreset)
    case twin(NodeTwin)

    /// The source `configuration` names: its twin, else its device type (`--type`).
    init(_ configuration: VirtualDeviceConfiguration) throws(DeviceError) {
        try self.init(type: configuration.deviceType, twin: configuration.twin)
    }

    /// The twin when there is one, else the device type named `type`.
    init(type: String, twin: NodeTwin?) throws(DeviceError) {
        if let twin {
            self = .twin(twin)
            return
        }
        do {
            self = .preset(try DevicePreset(cliName: type))
        } catch {
            throw .invalidConfiguration("\(error)")
        }
    }

    /// The product ID the device reports unless it is given one.
    var productID: ProductID {
        switch self {
        case .preset(let preset): preset.productID
        case .twin(let twin): twin.productID
        }
    }

    /// The device type the device advertises (DNS-SD `DT`): its own, or the recording's first application one.
    var deviceTypeID: DeviceTypeID {
        switch self {
        case .preset(let preset): preset.deviceType.id
        case .twin(let twin): twin.primaryDeviceType.id
        }
    }
}
