import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

extension ClusterBehaviour {
    /// The behaviour of `cluster`: its own (``registry``), else the mode behaviour every cluster derived from Mode
    /// Base shares (``modeBase(_:)``).
    static func of(_ cluster: ClusterSchema) -> ClusterBehaviour? {
        if let own = registry[cluster.id] { return own }
        return cluster.base == "ModeBase" ? modeBase(cluster) : nil
    }

    /// A cluster derived from Mode Base (EVSE, water heater, microwave, laundry, dishwasher, oven, refrigerator and
    /// device energy management modes...): one mode per mode tag the cluster defines for itself (the model's
    /// ModeTag values from 0x4000; the common tags Auto, Quick and Quiet where it defines fewer than two), labelled
    /// with the tag's words and tagged with it, the first one current. ChangeToMode answers Success and changes
    /// CurrentMode, or UnsupportedMode for a mode the device does not have.
    static func modeBase(_ cluster: ClusterSchema) -> ClusterBehaviour? {
        guard let tags = cluster.enumeration(named: "ModeTag"),
            let changeToMode = cluster.command(named: "ChangeToMode"),
            case .command(let responseID) = changeToMode.response
        else { return nil }
        var chosen = tags.values.filter { $0.value >= 0x4000 }
        if chosen.count < 2 { chosen += tags.values.filter { $0.value < 0x4000 }.prefix(3 - chosen.count) }
        let modes = chosen.enumerated().map {
            (mode: UInt64($0.offset), label: DevicePreset.words($0.element.name), tag: $0.element.value)
        }
        let supportedModes = AttributeID(0x0000)
        let currentMode = AttributeID(0x0001)
        return ClusterBehaviour { server in
            server.update(supportedModes, modeOptions(modes))
            server.update(currentMode, .unsigned(0))
            server.handle(changeToMode.id) { server, fields, _ throws(StatusIB) -> CommandResponse? in
                let mode = try fields.unsigned(0, UInt8.self)
                guard modes.contains(where: { $0.mode == UInt64(mode) }) else {
                    let known = modes.map { "\($0.mode) \($0.label)" }.joined(separator: ", ")
                    return CommandResponse(
                        command: responseID,
                        fields: .structure([
                            TLVElement(tag: .context(0), .unsigned(1)),
                            TLVElement(
                                tag: .context(1), .utf8(String("no mode \(mode): \(known)".utf8.prefix(64)) ?? "")),
                        ]))
                }
                server.update(currentMode, .unsigned(UInt64(mode)))
                return CommandResponse(
                    command: responseID, fields: .structure([TLVElement(tag: .context(0), .unsigned(0))]))
            }
        }
    }

    /// A Mode Base SupportedModes list: each mode's label, number and one mode tag (ModeOptionStruct).
    static func modeOptions(_ modes: [(mode: UInt64, label: String, tag: UInt64)]) -> TLVValue {
        .array(
            modes.map { mode in
                TLVElement(
                    .structure([
                        TLVElement(tag: .context(0), .utf8(mode.label)),
                        TLVElement(tag: .context(1), .unsigned(mode.mode)),
                        TLVElement(
                            tag: .context(2),
                            .array([TLVElement(.structure([TLVElement(tag: .context(1), .unsigned(mode.tag))]))])),
                    ]))
            })
    }

    /// Mode Select: a device's three modes (0 Low, 1 Medium, 2 High) described as "Mode", no standard namespace,
    /// Low current; ChangeToMode changes CurrentMode, CONSTRAINT_ERROR for a mode it does not have; StartUpMode,
    /// when set, is the mode at start.
    static let modeSelect = ClusterBehaviour { server in
        let labels = ["Low", "Medium", "High"]
        server.update(.ModeSelect.description, .utf8("Mode"))
        server.update(.ModeSelect.standardNamespace, .null)
        server.update(
            .ModeSelect.supportedModes,
            .array(
                labels.enumerated().map { mode in
                    TLVElement(
                        .structure([
                            TLVElement(tag: .context(0), .utf8(mode.element)),
                            TLVElement(tag: .context(1), .unsigned(UInt64(mode.offset))),
                            TLVElement(tag: .context(2), .array([])),
                        ]))
                }))
        server.update(.ModeSelect.currentMode, .unsigned(0))
        server.onStart { server in
            if case .unsigned(let mode)? = server.value(.ModeSelect.startUpMode), mode < UInt64(labels.count) {
                server.update(.ModeSelect.currentMode, .unsigned(mode))
            }
        }
        server.handle(.ModeSelect.changeToMode) { server, fields, _ throws(StatusIB) -> CommandResponse? in
            let mode = try fields.unsigned(0, UInt8.self)
            guard Int(mode) < labels.count else { throw StatusIB(.constraintError) }
            server.update(.ModeSelect.currentMode, .unsigned(UInt64(mode)))
            return nil
        }
    }
}
