import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

/// What a catalogue device does with a cluster that has no server of its own, beyond holding its attributes:
/// the optional features, attributes, commands and events it serves for that, and the reactions it attaches
/// to the ``GenericClusterServer`` (commands, changes that follow a change, events, motion over time).
/// One file per cluster in this folder; ``ClusterBehaviour/registry`` lists them.
struct ClusterBehaviour: Sendable {
    var features: [String] = []
    var attributes: [AttributeID] = []
    var commands: [CommandID] = []
    var events: [EventID] = []
    let attach: @Sendable (GenericClusterServer) -> Void

    /// The behaviours by cluster.
    static let registry: [ClusterID: ClusterBehaviour] = [
        .booleanState: .booleanState,
        .windowCovering: .windowCovering,
        .fanControl: .fanControl,
        .smokeCoAlarm: .smokeCoAlarm,
        .onOff: .onOff,
        .switch: .switch,
        .thermostat: .thermostat,
        .operationalState: .operationalState,
        .bridgedDeviceBasicInformation: .bridgedDeviceBasicInformation,
        .rvcRunMode: .rvcRunMode,
        .rvcOperationalState: .rvcOperationalState,
        .energyEvse: .energyEvse,
        .cameraAvStreamManagement: .cameraAvStreamManagement,
        .webRtcTransportProvider: .webRtcTransportProvider,
        .chime: .chime,
        .valveConfigurationAndControl: .valveConfigurationAndControl,
        .modeSelect: .modeSelect,
        .mediaPlayback: .mediaPlayback,
        .keypadInput: .keypadInput,
        .contentLauncher: .contentLauncher,
        .applicationLauncher: .applicationLauncher,
        .temperatureControl: .temperatureControl,
        .webRtcTransportRequestor: .webRtcTransportRequestor,
        .waterHeaterManagement: .waterHeaterManagement,
        .microwaveOvenControl: .microwaveOvenControl,
        .deviceEnergyManagement: .deviceEnergyManagement,
        .closureControl: .closureControl,
        .closureDimension: .closureDimension,
    ]
}

extension GenericClusterServer {
    /// The value of `attribute` as an unsigned integer (0 when absent or null).
    func unsignedValue(_ attribute: AttributeID) -> UInt64 {
        if case .unsigned(let value)? = value(attribute) { return value }
        return 0
    }

    /// Sets `attribute` when the server has it; a value the model refuses is a defect of the behaviour,
    /// logged as a note, never a crash.
    func update(_ attribute: AttributeID, _ value: TLVValue) {
        guard attributes.contains(where: { $0.id == attribute }) else { return }
        do {
            try set(attribute, value)
        } catch {
            note("\(schema.name): \(attribute) not set to \(value): \(error)")
        }
    }
}
