package import MatterClusters
package import MatterCore
package import MatterInteraction
package import MatterTLV

/// On/Off 0x0006 (rev 6) with the Lighting feature: Off, On, Toggle, OffWithEffect,
/// OnWithRecallGlobalScene, OnWithTimedOff (OnTime/OffWaitTime count down in tenths of a second),
/// StartUpOnOff applied at boot, OnOff persisted. Turning on or off through this cluster drives the
/// endpoint's Level Control (OnLevel, On/OffTransitionTime). Effects are applied at once.
///
/// With a Scenes Management server on the endpoint, OnOff is scene-able and the global scene (group 0
/// scene 0 of the accessing fabric) follows GlobalSceneControl (spec 1.5.7.4-5, the SDK's on-off
/// server): OffWithEffect stores it when GlobalSceneControl is true, then sets it false;
/// OnWithRecallGlobalScene, when GlobalSceneControl is false, recalls it and sets it true.
package final class OnOffServer: ClusterServer {
    /// StartUpOnOffEnum values.
    package typealias StartUpOnOff = Clusters.OnOff.StartUpOnOffEnum

    /// EffectIdentifierEnum of OffWithEffect.
    package typealias Effect = Clusters.OnOff.EffectIdentifierEnum

    /// Lighting feature (LT): the global-scene and timed-off attributes and commands.
    package let lighting: Bool
    private let initiallyOn: Bool
    /// OnOff.
    package private(set) var isOn: Bool
    /// GlobalSceneControl.
    package private(set) var globalSceneControl = true
    /// OnTime, 1/10 s.
    package private(set) var onTime: UInt16 = 0
    /// OffWaitTime, 1/10 s.
    package private(set) var offWaitTime: UInt16 = 0
    /// StartUpOnOff (nil: keep the previous state).
    package private(set) var startUpOnOff: StartUpOnOff?
    private lazy var countdown = makeTimer { [unowned self] in self.tick() }
    /// The off at the end of a recalled scene's transition.
    private lazy var sceneOff = makeTimer { [unowned self] in self.set(false, coupled: false) }

    /// `lighting`: the LT feature (required by every light and plug device type).
    package init(lighting: Bool = true, initiallyOn: Bool = false) {
        self.lighting = lighting
        self.initiallyOn = initiallyOn
        self.isOn = initiallyOn
        super.init(id: .onOff, revision: ClusterSchema.onOff.revision, featureMap: lighting ? 0x01 : 0)
    }

    override package var attributes: [AttributeInfo] {
        typealias A = AttributeID.OnOff
        return Self.attributeInfos(
            .onOff,
            lighting
                ? [A.onOff, A.globalSceneControl, A.onTime, A.offWaitTime, A.startUpOnOff]
                : [A.onOff])
    }

    override package var acceptedCommands: [CommandInfo] {
        typealias C = CommandID.OnOff
        return Self.commandInfos(
            .onOff,
            lighting
                ? [C.off, C.on, C.toggle, C.offWithEffect, C.onWithRecallGlobalScene, C.onWithTimedOff]
                : [C.off, C.on, C.toggle])
    }

    override package func start() {
        if lighting, case .unsigned(let raw)? = loadPersisted(.OnOff.startUpOnOff) {
            startUpOnOff = UInt8(exactly: raw).flatMap(StartUpOnOff.init)
        }
        var previous = initiallyOn
        if case .bool(let stored)? = loadPersisted(.OnOff.onOff) { previous = stored }
        switch lighting ? startUpOnOff : nil {
        case .off?: isOn = false
        case .on?: isOn = true
        case .toggle?: isOn = !previous
        case nil: isOn = previous
        }
        persist(.OnOff.onOff, .bool(isOn))
    }

    override package func stop() {
        countdown.cancel()
        sceneOff.cancel()
    }

    override package func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        switch attribute {
        case .OnOff.onOff: return .bool(isOn)
        case .OnOff.globalSceneControl where lighting: return .bool(globalSceneControl)
        case .OnOff.onTime where lighting: return .unsigned(UInt64(onTime))
        case .OnOff.offWaitTime where lighting: return .unsigned(UInt64(offWaitTime))
        case .OnOff.startUpOnOff where lighting: return startUpOnOff.map { .unsigned(UInt64($0.rawValue)) } ?? .null
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    override package func write(_ attribute: AttributeID, _ write: AttributeWrite, context: InteractionContext)
        throws(StatusIB)
    {
        let value = WriteValue(write)
        switch attribute {
        case .OnOff.onTime where lighting:
            setOnTime(try value.unsigned(UInt16.self))
        case .OnOff.offWaitTime where lighting:
            setOffWaitTime(try value.unsigned(UInt16.self))
        case .OnOff.startUpOnOff where lighting:
            let raw = try value.nullableUnsigned(UInt8.self)
            let mode: StartUpOnOff?
            if let raw {
                guard let parsed = StartUpOnOff(rawValue: raw) else { throw StatusIB(.constraintError) }
                mode = parsed
            } else {
                mode = nil
            }
            guard mode != startUpOnOff else { return }
            startUpOnOff = mode
            persist(attribute, mode.map { .unsigned(UInt64($0.rawValue)) } ?? .null)
            attributeChanged(attribute)
        default:
            throw StatusIB(.unsupportedWrite)
        }
    }

    override package func invoke(_ command: CommandID, fields: CommandFields, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        sceneOff.cancel()
        scenes?.invalidateScenes()
        switch command {
        case .OnOff.off:
            off()
        case .OnOff.on:
            on()
        case .OnOff.toggle:
            if isOn { off() } else { on() }
        case .OnOff.offWithEffect where lighting:
            guard let effect = Effect(rawValue: try fields.unsigned(0, UInt8.self)) else {
                throw StatusIB(.constraintError)
            }
            let variant = try fields.unsigned(1, UInt8.self)
            offWithEffect(effect, variant: variant, fabric: context.subject.fabricIndex)
        case .OnOff.onWithRecallGlobalScene where lighting:
            onWithRecallGlobalScene(fabric: context.subject.fabricIndex)
        case .OnOff.onWithTimedOff where lighting:
            let control = try fields.unsigned(0, UInt8.self)
            let onTimeField = try fields.unsigned(1, UInt16.self)
            let offWaitField = try fields.unsigned(2, UInt16.self)
            guard onTimeField <= 0xFFFE, offWaitField <= 0xFFFE else { throw StatusIB(.constraintError) }
            onWithTimedOff(acceptOnlyWhenOn: control & 0x01 != 0, onTime: onTimeField, offWaitTime: offWaitField)
        default:
            throw StatusIB(.unsupportedCommand)
        }
        return nil
    }

    // MARK: - Behaviour

    /// The On command: on, GlobalSceneControl true, OffWaitTime cleared unless a timed-off runs.
    package func on() {
        set(true, coupled: true)
        guard lighting else { return }
        setGlobalSceneControl(true)
        if onTime == 0 { setOffWaitTime(0) }
    }

    /// The Off command: OnTime cleared, off.
    package func off() {
        if lighting { setOnTime(0) }
        set(false, coupled: true)
    }

    /// OffWithEffect: like Off, after storing the global scene of `fabric` when GlobalSceneControl is
    /// true (which then goes false). The effect is applied at once and noted in the change log.
    package func offWithEffect(_ effect: Effect, variant: UInt8, fabric: UInt8 = 0) {
        if globalSceneControl {
            if fabric != 0 {
                try? scenes?.storeScene(
                    fabric: fabric, group: ScenesManagementServer.globalGroup, scene: ScenesManagementServer.globalScene
                )
            }
            setGlobalSceneControl(false)
        }
        note("on-off \(endpointID.rawValue): off with effect \(effect) variant \(variant)")
        off()
    }

    /// OnWithRecallGlobalScene: ignored while GlobalSceneControl is true; otherwise the global scene
    /// of `fabric` is recalled (when there is one), GlobalSceneControl goes true, OffWaitTime is
    /// cleared unless a timed-off runs, and the light is on.
    package func onWithRecallGlobalScene(fabric: UInt8) {
        guard lighting, !globalSceneControl else { return }
        if fabric != 0 {
            try? scenes?.recallScene(
                fabric: fabric, group: ScenesManagementServer.globalGroup, scene: ScenesManagementServer.globalScene)
        }
        setGlobalSceneControl(true)
        if onTime == 0 { setOffWaitTime(0) }
        if !isOn || sceneOff.isRunning {
            sceneOff.cancel()
            set(true, coupled: !hasRecalledLevel(fabric: fabric))
        }
    }

    /// True when the fabric's global scene holds a level (then the recall moves the level, not OnLevel).
    private func hasRecalledLevel(fabric: UInt8) -> Bool {
        scenes?.table.scene(
            fabric: fabric, group: ScenesManagementServer.globalGroup, scene: ScenesManagementServer.globalScene)?
            .values(of: .levelControl) != nil
    }

    private var scenes: ScenesManagementServer? { sibling(ScenesManagementServer.self) }

    /// OnWithTimedOff (times in 1/10 s).
    package func onWithTimedOff(acceptOnlyWhenOn: Bool, onTime onTimeField: UInt16, offWaitTime offWaitField: UInt16) {
        if acceptOnlyWhenOn, !isOn { return }
        if !isOn, offWaitTime > 0 {
            setOffWaitTime(min(offWaitTime, offWaitField))
        } else {
            setOnTime(max(onTime, onTimeField))
            setOffWaitTime(offWaitField)
            set(true, coupled: true)
        }
        updateCountdown()
    }

    /// OnOff changes as the device's own button would change it (On or Off); other attributes as
    /// written.
    override package func setLocally(_ attribute: AttributeID, _ value: TLVValue) throws(StatusIB) {
        guard attribute == .OnOff.onOff else { return try super.setLocally(attribute, value) }
        guard case .bool(let on) = value else { throw StatusIB(.constraintError) }
        sceneOff.cancel()
        scenes?.invalidateScenes()
        if on { self.on() } else { off() }
    }

    /// Sets OnOff as Level Control does for its WithOnOff commands (no coupling back to the level).
    func setFromLevelControl(_ on: Bool) {
        sceneOff.cancel()
        set(on, coupled: false)
    }

    private func set(_ on: Bool, coupled: Bool) {
        defer { updateCountdown() }
        guard on != isOn else { return }
        isOn = on
        persist(.OnOff.onOff, .bool(on))
        attributeChanged(.OnOff.onOff)
        if coupled { sibling(LevelControlServer.self)?.onOffChanged(on) }
    }

    private func setGlobalSceneControl(_ value: Bool) {
        guard value != globalSceneControl else { return }
        globalSceneControl = value
        attributeChanged(.OnOff.globalSceneControl)
    }

    private func setOnTime(_ value: UInt16, quiet: Bool = false) {
        defer { updateCountdown() }
        guard value != onTime else { return }
        onTime = value
        attributeChanged(.OnOff.onTime, quiet: quiet)
    }

    private func setOffWaitTime(_ value: UInt16, quiet: Bool = false) {
        defer { updateCountdown() }
        guard value != offWaitTime else { return }
        offWaitTime = value
        attributeChanged(.OnOff.offWaitTime, quiet: quiet)
    }

    /// The timed-off countdown runs while on with OnTime > 0, or off with OffWaitTime > 0.
    private var countdownNeeded: Bool {
        lighting && (isOn ? onTime > 0 && onTime != 0xFFFF : offWaitTime > 0)
    }

    private func updateCountdown() {
        if countdownNeeded {
            if !countdown.isRunning { countdown.start(after: Transition.tick) }
        } else {
            countdown.cancel()
        }
    }

    /// One tenth of a second of the timed-off state machine (spec 1.5.6.6-7, the SDK's on-off server):
    /// while on, OnTime counts down, and when it reaches 0 OffWaitTime becomes 0 and the light goes off
    /// together (a plain off, not the delayed-off state); while off, OffWaitTime counts down (the
    /// delayed-off state an Off during a timed on leaves behind).
    private func tick() {
        if isOn, onTime > 0, onTime != 0xFFFF {
            let left = onTime - 1
            setOnTime(left, quiet: left > 0)
            if left == 0 {
                setOffWaitTime(0)
                set(false, coupled: true)
            }
        } else if !isOn, offWaitTime > 0 {
            let left = offWaitTime - 1
            setOffWaitTime(left, quiet: left > 0)
        }
        updateCountdown()
    }

    override package func changeDescription(of attribute: AttributeID, value: TLVValue) -> String? {
        switch attribute {
        case .OnOff.onOff: "on-off \(endpointID.rawValue) → \(isOn ? "on" : "off")"
        case .OnOff.globalSceneControl, .OnOff.onTime, .OnOff.offWaitTime: nil
        default: super.changeDescription(of: attribute, value: value)
        }
    }
}

extension OnOffServer: SceneParticipant {
    /// OnOff (a boolean, as ValueUnsigned8 0 or 1).
    package var sceneAttributes: [SceneAttribute] { [SceneAttribute(.OnOff.onOff, .unsigned8, range: 0...1)] }

    package func currentSceneValues() -> [SceneAttributeValue] {
        [SceneAttributeValue(.OnOff.onOff, .unsigned8, isOn ? 1 : 0)]
    }

    /// On at once; off at once, or at the end of the transition (so that a recalled level fades first,
    /// as the SDK's on-off scene handler does). The level is the scene's, not coupled to OnOff.
    package func recallScene(_ values: [SceneAttributeValue], transitionTime: UInt32) {
        guard let value = values.first(where: { $0.attribute == .OnOff.onOff }) else { return }
        sceneOff.cancel()
        if value.value != 0 {
            set(true, coupled: false)
        } else if transitionTime == 0 || !isOn {
            set(false, coupled: false)
        } else {
            sceneOff.start(after: UInt64(transitionTime))
        }
    }
}
