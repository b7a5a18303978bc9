import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

extension ClusterBehaviour {
    /// Chime: two installed sounds (0 "Ding Dong", 1 "Westminster"), the first selected and the chime enabled
    /// at first start; PlayChimeSound plays the sound named (or the selected one) when enabled, as a note on the
    /// device's output, and NOT_FOUND for a sound that is not installed; SelectedChime takes only an installed
    /// sound (NOT_FOUND otherwise).
    static let chime = ClusterBehaviour(commands: [.Chime.playChimeSound]) { server in
        server.onStart { server in
            guard case .array(let sounds)? = server.value(.Chime.installedChimeSounds), sounds.isEmpty else { return }
            let installed: [(UInt64, String)] = [(0, "Ding Dong"), (1, "Westminster")]
            server.update(
                .Chime.installedChimeSounds,
                .array(
                    installed.map { sound in
                        TLVElement(
                            .structure([
                                TLVElement(tag: .context(0), .unsigned(sound.0)),
                                TLVElement(tag: .context(1), .utf8(sound.1)),
                            ]))
                    }))
            server.update(.Chime.selectedChime, .unsigned(0))
            server.update(.Chime.enabled, .bool(true))
        }
        server.checkWrites(.Chime.selectedChime) { server, value throws(StatusIB) in
            guard case .unsigned(let chime) = value, soundName(server, chime) != nil else { throw StatusIB(.notFound) }
        }
        server.handle(.Chime.playChimeSound) { server, fields, _ throws(StatusIB) -> CommandResponse? in
            let selected = server.unsignedValue(.Chime.selectedChime)
            let chime = try fields.optionalUnsigned(0, UInt8.self).map(UInt64.init) ?? selected
            guard let name = soundName(server, chime) else { throw StatusIB(.notFound) }
            if server.value(.Chime.enabled) == .bool(true) { server.note("chime: playing \(name)") }
            return nil
        }
    }
}

/// The name of installed sound `chime`, or nil when it is not installed.
private func soundName(_ server: GenericClusterServer, _ chime: UInt64) -> String? {
    guard case .array(let sounds)? = server.value(.Chime.installedChimeSounds) else { return nil }
    for sound in sounds {
        guard case .structure(let fields) = sound.value,
            fields.first(where: { $0.tag == .context(0) })?.value == .unsigned(chime)
        else { continue }
        if case .utf8(let name)? = fields.first(where: { $0.tag == .context(1) })?.value { return name }
        return ""
    }
    return nil
}
