import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

extension ClusterBehaviour {
    /// Microwave Oven Control: 30 s at full power (100, in steps of 10 from 10 where the power limits are served)
    /// at first, at most a day. SetCookingParameters sets the mode (one of the Microwave Oven Mode's), the cooking
    /// time and the power, each checked (CONSTRAINT_ERROR), refused while cooking (INVALID_IN_STATE), and starts
    /// the oven's cycle (Operational State Start) when StartAfterSetting asks; AddMoreTime lengthens the time.
    static let microwaveOvenControl = ClusterBehaviour(
        features: ["PWRLMTS"], commands: [.MicrowaveOvenControl.addMoreTime]
    ) { server in
        let day: UInt64 = 86_400
        server.update(.MicrowaveOvenControl.maxCookTime, .unsigned(day))
        server.update(.MicrowaveOvenControl.cookTime, .unsigned(30))
        server.update(.MicrowaveOvenControl.minPower, .unsigned(10))
        server.update(.MicrowaveOvenControl.maxPower, .unsigned(100))
        server.update(.MicrowaveOvenControl.powerStep, .unsigned(10))
        server.update(.MicrowaveOvenControl.powerSetting, .unsigned(100))
        func cooking(_ server: GenericClusterServer) -> GenericClusterServer? {
            guard let state = server.endpoint?.cluster(.operationalState) as? GenericClusterServer else { return nil }
            return state.unsignedValue(.OperationalState.operationalState) == 1 ? state : nil
        }
        server.handle(.MicrowaveOvenControl.setCookingParameters) {
            (server, fields, context) throws(StatusIB) -> CommandResponse? in
            guard cooking(server) == nil else { throw StatusIB(.invalidInState) }
            let mode = try fields.optionalUnsigned(0, UInt8.self)
            let time = try fields.optionalUnsigned(1, UInt32.self)
            let power = try fields.optionalUnsigned(2, UInt8.self)
            let start = try fields[4].map { element throws(StatusIB) -> Bool in
                guard case .bool(let value) = element.value else { throw StatusIB(.invalidCommand) }
                return value
            }
            let modes = server.endpoint?.cluster(.microwaveOvenMode) as? GenericClusterServer
            if let mode {
                guard case .array(let supported)? = modes?.value(.MicrowaveOvenMode.supportedModes),
                    supported.contains(where: { entry in
                        guard case .structure(let fields) = entry.value else { return false }
                        return fields.first { $0.tag == .context(1) }?.value == .unsigned(UInt64(mode))
                    })
                else { throw StatusIB(.constraintError) }
            }
            if let time, time < 1 || UInt64(time) > server.unsignedValue(.MicrowaveOvenControl.maxCookTime) {
                throw StatusIB(.constraintError)
            }
            if let power {
                let low = server.unsignedValue(.MicrowaveOvenControl.minPower)
                let high = server.unsignedValue(.MicrowaveOvenControl.maxPower)
                let step = max(1, server.unsignedValue(.MicrowaveOvenControl.powerStep))
                guard UInt64(power) >= low, UInt64(power) <= high, (UInt64(power) - low) % step == 0 else {
                    throw StatusIB(.constraintError)
                }
            }
            if let mode { modes?.update(.MicrowaveOvenMode.currentMode, .unsigned(UInt64(mode))) }
            server.update(.MicrowaveOvenControl.cookTime, .unsigned(UInt64(time ?? 30)))
            server.update(.MicrowaveOvenControl.powerSetting, .unsigned(UInt64(power ?? 100)))
            if start == true, let state = server.endpoint?.cluster(.operationalState) {
                _ = try state.invoke(
                    .OperationalState.start, fields: CommandFields(TLVElement(.structure([]))), context: context)
            }
            return nil
        }
        server.handle(.MicrowaveOvenControl.addMoreTime) { server, fields, _ throws(StatusIB) -> CommandResponse? in
            let more = UInt64(try fields.unsigned(0, UInt32.self))
            let total = server.unsignedValue(.MicrowaveOvenControl.cookTime) + more
            guard total <= server.unsignedValue(.MicrowaveOvenControl.maxCookTime) else {
                throw StatusIB(.constraintError)
            }
            server.update(.MicrowaveOvenControl.cookTime, .unsigned(total))
            return nil
        }
    }
}
