package import MatterClusters
package import MatterCore
package import MatterInteraction
package import MatterTLV

/// Identify 0x0003 (rev 6): IdentifyTime counts down once a second while the device identifies;
/// Identify sets it, TriggerEffect runs an effect (a virtual device just notes it in the change log).
package final class IdentifyServer: ClusterServer {
    /// IdentifyTypeEnum values.
    package typealias IdentifyType = Clusters.Identify.IdentifyTypeEnum

    /// EffectIdentifierEnum values of TriggerEffect.
    package typealias Effect = Clusters.Identify.EffectIdentifierEnum

    /// IdentifyType.
    package let identifyType: IdentifyType
    /// Seconds left to identify (0: not identifying).
    package private(set) var identifyTime: UInt16 = 0
    /// The effect last triggered, until it is stopped.
    package private(set) var currentEffect: Effect?
    private lazy var countdown = makeTimer { [unowned self] in self.tick() }

    package init(identifyType: IdentifyType) {
        self.identifyType = identifyType
        super.init(id: .identify, revision: ClusterSchema.identify.revision)
    }

    /// True while IdentifyTime > 0.
    package var isIdentifying: Bool { identifyTime > 0 }

    override package var attributes: [AttributeInfo] {
        Self.attributeInfos(.identify, [.Identify.identifyTime, .Identify.identifyType])
    }

    override package var acceptedCommands: [CommandInfo] {
        Self.commandInfos(.identify, [.Identify.identify, .Identify.triggerEffect])
    }

    override package func stop() { countdown.cancel() }

    override package func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        switch attribute {
        case .Identify.identifyTime: .unsigned(UInt64(identifyTime))
        case .Identify.identifyType: .unsigned(UInt64(identifyType.rawValue))
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    override package func write(_ attribute: AttributeID, _ write: AttributeWrite, context: InteractionContext)
        throws(StatusIB)
    {
        guard attribute == .Identify.identifyTime else { throw StatusIB(.unsupportedWrite) }
        setIdentifyTime(try WriteValue(write).unsigned(UInt16.self))
    }

    override package func invoke(_ command: CommandID, fields: CommandFields, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        switch command {
        case .Identify.identify:
            setIdentifyTime(try fields.unsigned(0, UInt16.self))
        case .Identify.triggerEffect:
            guard let effect = Effect(rawValue: try fields.unsigned(0, UInt8.self)) else {
                throw StatusIB(.constraintError)
            }
            _ = try fields.unsigned(1, UInt8.self)
            trigger(effect)
        default:
            throw StatusIB(.unsupportedCommand)
        }
        return nil
    }

    /// Starts (seconds > 0) or stops identifying.
    package func setIdentifyTime(_ seconds: UInt16) {
        let changed = seconds != identifyTime
        identifyTime = seconds
        if seconds > 0 { countdown.start(after: 1000) } else { countdown.cancel() }
        if changed { attributeChanged(.Identify.identifyTime) }
    }

    private func trigger(_ effect: Effect) {
        switch effect {
        case .finishEffect, .stopEffect:
            currentEffect = nil
            note("identify \(endpointID.rawValue): effect stopped")
        default:
            currentEffect = effect
            note("identify \(endpointID.rawValue): effect \(effect)")
        }
    }

    private func tick() {
        guard identifyTime > 0 else { return }
        identifyTime -= 1
        attributeChanged(.Identify.identifyTime, quiet: identifyTime > 0)
        if identifyTime > 0 { countdown.start(after: 1000) }
    }

    override package func changeDescription(of attribute: AttributeID, value: TLVValue) -> String? {
        guard attribute == .Identify.identifyTime else { return nil }
        return identifyTime > 0
            ? "identify \(endpointID.rawValue): \(identifyTime) s" : "identify \(endpointID.rawValue): stopped"
    }
}
