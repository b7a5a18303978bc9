import MatterClusters
package import MatterCore
package import MatterInteraction
package import MatterTLV

/// Level Control 0x0008 (rev 6) with the OnOff (OO) and Lighting (LT) features: MoveToLevel, Move,
/// Step, Stop and their WithOnOff forms, transitions over time (CurrentLevel and RemainingTime update
/// every 100 ms; reports follow the quieter-reporting rules: at most one CurrentLevel report a
/// second plus the final value), Options/ExecuteIfOff, OnLevel and the transition-time attributes,
/// StartUpCurrentLevel applied at boot, CurrentLevel persisted.
///
/// Coupling with the endpoint's On/Off server: the WithOnOff commands turn it on before moving above
/// MinLevel and off on reaching MinLevel; the plain commands do nothing while it is off unless
/// ExecuteIfOff says so; On and Off commands move the level (OnLevel, On/OffTransitionTime).
package final class LevelControlServer: ClusterServer {
    /// Construction parameters.
    package struct Configuration: Hashable, Sendable {
        /// Lighting feature (LT): MinLevel 1, RemainingTime, StartUpCurrentLevel.
        package var lighting = true
        /// CurrentLevel before anything is persisted.
        package var initialLevel: UInt8 = 254
        /// MinLevel (1 with LT, 0 without, unless set).
        package var minLevel: UInt8?
        /// MaxLevel.
        package var maxLevel: UInt8 = 254
        /// DefaultMoveRate, units per second (used by Move with a null rate).
        package var defaultMoveRate: UInt8?

        package init(lighting: Bool = true, initialLevel: UInt8 = 254) {
            self.lighting = lighting
            self.initialLevel = initialLevel
        }
    }

    private enum Purpose: Hashable {
        case command(withOnOff: Bool)
        /// The fade of an Off command; `restore` is the level to return to once off.
        case offFade(restore: UInt8)
    }

    private struct Run {
        var transition: Transition
        var purpose: Purpose
    }

    /// Options bit 0.
    package static let executeIfOff: UInt8 = 0x01

    package let configuration: Configuration
    /// MinLevel.
    package let minLevel: UInt8
    /// MaxLevel.
    package let maxLevel: UInt8
    /// CurrentLevel.
    package private(set) var currentLevel: UInt8?
    /// RemainingTime, 1/10 s.
    package private(set) var remainingTime: UInt16 = 0
    /// Options (bit 0 ExecuteIfOff, bit 1 CoupleColorTempToLevel).
    package private(set) var options: UInt8 = 0
    /// OnOffTransitionTime, 1/10 s.
    package private(set) var onOffTransitionTime: UInt16 = 0
    /// OnLevel (nil: the level before the device was turned off).
    package private(set) var onLevel: UInt8?
    /// OnTransitionTime (nil: OnOffTransitionTime).
    package private(set) var onTransitionTime: UInt16?
    /// OffTransitionTime (nil: OnOffTransitionTime).
    package private(set) var offTransitionTime: UInt16?
    /// DefaultMoveRate.
    package private(set) var defaultMoveRate: UInt8?
    /// StartUpCurrentLevel (nil: keep the previous level; 0: MinLevel).
    package private(set) var startUpCurrentLevel: UInt8?

    private var run: Run?
    private var levelReports = ReportThrottle()
    private var remainingReports = RemainingTimeReporting()
    private lazy var ticker = makeTimer { [unowned self] in self.step() }

    package init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.minLevel = configuration.minLevel ?? (configuration.lighting ? 1 : 0)
        self.maxLevel = configuration.maxLevel
        self.currentLevel = configuration.initialLevel
        self.defaultMoveRate = configuration.defaultMoveRate
        super.init(
            id: .levelControl, revision: ClusterSchema.levelControl.revision,
            featureMap: 0x01 | (configuration.lighting ? 0x02 : 0))
    }

    /// True while a transition runs.
    package var isTransitioning: Bool { run != nil }

    override package var attributes: [AttributeInfo] {
        typealias A = AttributeID.LevelControl
        var ids: [AttributeID] = [A.currentLevel]
        if configuration.lighting { ids.append(A.remainingTime) }
        ids += [
            A.minLevel, A.maxLevel, A.options, A.onOffTransitionTime, A.onLevel, A.onTransitionTime,
            A.offTransitionTime, A.defaultMoveRate,
        ]
        if configuration.lighting { ids.append(A.startUpCurrentLevel) }
        return Self.attributeInfos(.levelControl, ids)
    }

    override package var acceptedCommands: [CommandInfo] {
        typealias C = CommandID.LevelControl
        return Self.commandInfos(
            .levelControl,
            [
                C.moveToLevel, C.move, C.step, C.stop, C.moveToLevelWithOnOff, C.moveWithOnOff, C.stepWithOnOff,
                C.stopWithOnOff,
            ])
    }

    // MARK: - Lifecycle

    override package func start() {
        typealias A = AttributeID.LevelControl
        if let stored = loadPersisted(A.currentLevel) {
            currentLevel = Self.nullableUInt8(stored) ?? currentLevel
        }
        if case .unsigned(let raw)? = loadPersisted(A.options), let value = UInt8(exactly: raw) { options = value }
        if case .unsigned(let raw)? = loadPersisted(A.onOffTransitionTime), let value = UInt16(exactly: raw) {
            onOffTransitionTime = value
        }
        onLevel = loadPersisted(A.onLevel).flatMap(Self.nullableUInt8)
        onTransitionTime = loadPersisted(A.onTransitionTime).flatMap(Self.nullableUInt16)
        offTransitionTime = loadPersisted(A.offTransitionTime).flatMap(Self.nullableUInt16)
        if let stored = loadPersisted(A.defaultMoveRate) { defaultMoveRate = Self.nullableUInt8(stored) }
        if configuration.lighting {
            startUpCurrentLevel = loadPersisted(A.startUpCurrentLevel).flatMap(Self.nullableUInt8)
            if let startUp = startUpCurrentLevel { currentLevel = startUp }
        }
        if let level = currentLevel { currentLevel = clamp(level) }
        persist(A.currentLevel, currentLevel.map { .unsigned(UInt64($0)) } ?? .null)
    }

    override package func stop() {
        ticker.cancel()
        run = nil
    }

    private static func nullableUInt8(_ value: TLVValue) -> UInt8? {
        if case .unsigned(let raw) = value { UInt8(exactly: raw) } else { nil }
    }

    private static func nullableUInt16(_ value: TLVValue) -> UInt16? {
        if case .unsigned(let raw) = value { UInt16(exactly: raw) } else { nil }
    }

    private func clamp(_ level: UInt8) -> UInt8 { min(max(level, minLevel), maxLevel) }

    // MARK: - Attributes

    override package func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        typealias A = AttributeID.LevelControl
        func nullable<T: UnsignedInteger>(_ value: T?) -> TLVValue { value.map { .unsigned(UInt64($0)) } ?? .null }
        switch attribute {
        case A.currentLevel: return nullable(currentLevel)
        case A.remainingTime where configuration.lighting: return .unsigned(UInt64(remainingTime))
        case A.minLevel: return .unsigned(UInt64(minLevel))
        case A.maxLevel: return .unsigned(UInt64(maxLevel))
        case A.options: return .unsigned(UInt64(options))
        case A.onOffTransitionTime: return .unsigned(UInt64(onOffTransitionTime))
        case A.onLevel: return nullable(onLevel)
        case A.onTransitionTime: return nullable(onTransitionTime)
        case A.offTransitionTime: return nullable(offTransitionTime)
        case A.defaultMoveRate: return nullable(defaultMoveRate)
        case A.startUpCurrentLevel where configuration.lighting: return nullable(startUpCurrentLevel)
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    override package func write(_ attribute: AttributeID, _ write: AttributeWrite, context: InteractionContext)
        throws(StatusIB)
    {
        typealias A = AttributeID.LevelControl
        let value = WriteValue(write)
        let stored: TLVValue
        switch attribute {
        case A.options:
            let new = try value.unsigned(UInt8.self)
            guard new != options else { return }
            options = new
            stored = .unsigned(UInt64(new))
        case A.onOffTransitionTime:
            let new = try value.unsigned(UInt16.self)
            guard new != onOffTransitionTime else { return }
            onOffTransitionTime = new
            stored = .unsigned(UInt64(new))
        case A.onLevel:
            let new = try Self.nullableLevel(value)
            if let new, new < minLevel || new > maxLevel { throw StatusIB(.constraintError) }
            guard new != onLevel else { return }
            onLevel = new
            stored = value.value
        case A.onTransitionTime:
            let new = try value.nullableUnsigned(UInt16.self)
            guard new != onTransitionTime else { return }
            onTransitionTime = new
            stored = value.value
        case A.offTransitionTime:
            let new = try value.nullableUnsigned(UInt16.self)
            guard new != offTransitionTime else { return }
            offTransitionTime = new
            stored = value.value
        case A.defaultMoveRate:
            let new = try Self.nullableLevel(value)
            if new == 0 { throw StatusIB(.constraintError) }
            guard new != defaultMoveRate else { return }
            defaultMoveRate = new
            stored = value.value
        case A.startUpCurrentLevel where configuration.lighting:
            let new = try Self.nullableLevel(value)
            guard new != startUpCurrentLevel else { return }
            startUpCurrentLevel = new
            stored = value.value
        default:
            throw StatusIB(.unsupportedWrite)
        }
        persist(attribute, stored)
        attributeChanged(attribute)
    }

    /// A nullable uint8 (0...254; 255 is the null marker of the type, so CONSTRAINT_ERROR).
    private static func nullableLevel(_ value: WriteValue) throws(StatusIB) -> UInt8? {
        let level = try value.nullableUnsigned(UInt8.self)
        if level == 0xFF { throw StatusIB(.constraintError) }
        return level
    }

    // MARK: - Commands

    override package func invoke(_ command: CommandID, fields: CommandFields, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        typealias C = CommandID.LevelControl
        sibling(ScenesManagementServer.self)?.invalidateScenes()
        switch command {
        case C.moveToLevel, C.moveToLevelWithOnOff:
            try moveToLevel(
                try fields.unsigned(0, UInt8.self), transitionTime: try fields.nullableUnsigned(1, UInt16.self),
                optionsMask: try fields.optionalUnsigned(2) ?? 0, optionsOverride: try fields.optionalUnsigned(3) ?? 0,
                withOnOff: command == C.moveToLevelWithOnOff)
        case C.move, C.moveWithOnOff:
            try move(
                up: try Self.direction(try fields.unsigned(0, UInt8.self)), rate: try fields.nullableUnsigned(1),
                optionsMask: try fields.optionalUnsigned(2) ?? 0, optionsOverride: try fields.optionalUnsigned(3) ?? 0,
                withOnOff: command == C.moveWithOnOff)
        case C.step, C.stepWithOnOff:
            try step(
                up: try Self.direction(try fields.unsigned(0, UInt8.self)), size: try fields.unsigned(1),
                transitionTime: try fields.nullableUnsigned(2), optionsMask: try fields.optionalUnsigned(3) ?? 0,
                optionsOverride: try fields.optionalUnsigned(4) ?? 0, withOnOff: command == C.stepWithOnOff)
        case C.stop, C.stopWithOnOff:
            stop(
                optionsMask: try fields.optionalUnsigned(0) ?? 0, optionsOverride: try fields.optionalUnsigned(1) ?? 0,
                withOnOff: command == C.stopWithOnOff)
        default:
            throw StatusIB(.unsupportedCommand)
        }
        return nil
    }

    /// MoveMode/StepMode: 0 up, 1 down; anything else CONSTRAINT_ERROR.
    private static func direction(_ mode: UInt8) throws(StatusIB) -> Bool {
        switch mode {
        case 0: return true
        case 1: return false
        default: throw StatusIB(.constraintError)
        }
    }

    /// MoveToLevel(WithOnOff): to `level` (≤ 254, clamped into MinLevel...MaxLevel) over
    /// `transitionTime` tenths of a second (nil: OnOffTransitionTime).
    package func moveToLevel(
        _ level: UInt8, transitionTime: UInt16?, optionsMask: UInt8 = 0, optionsOverride: UInt8 = 0,
        withOnOff: Bool = false
    ) throws(StatusIB) {
        guard level <= 254 else { throw StatusIB(.constraintError) }
        let target = clamp(level)
        if withOnOff {
            if target > minLevel { onOffServer?.setFromLevelControl(true) }
        } else if !shouldExecute(optionsMask, optionsOverride) {
            return
        }
        let duration = UInt64(transitionTime ?? onOffTransitionTime) * 100
        startTransition(to: target, duration: duration, purpose: .command(withOnOff: withOnOff))
    }

    /// Move(WithOnOff): towards MaxLevel (`up`) or MinLevel at `rate` units/s (nil: DefaultMoveRate;
    /// none: at once). Rate 0 → INVALID_COMMAND.
    package func move(
        up: Bool, rate: UInt8?, optionsMask: UInt8 = 0, optionsOverride: UInt8 = 0, withOnOff: Bool = false
    ) throws(StatusIB) {
        if rate == 0 { throw StatusIB(.invalidCommand) }
        guard currentLevel != nil else { throw StatusIB(.failure) }
        if withOnOff {
            if up { onOffServer?.setFromLevelControl(true) }
        } else if !shouldExecute(optionsMask, optionsOverride) {
            return
        }
        let target = up ? maxLevel : minLevel
        let current = Int(currentLevel ?? target)
        let distance = UInt64(abs(Int(target) - current))
        guard let rate = rate ?? defaultMoveRate, distance > 0 else {
            startTransition(to: target, duration: 0, purpose: .command(withOnOff: withOnOff))
            return
        }
        startTransition(to: target, duration: distance * 1000 / UInt64(rate), purpose: .command(withOnOff: withOnOff))
    }

    /// Step(WithOnOff): by `size` units up or down (bounded by MinLevel/MaxLevel) over
    /// `transitionTime` tenths of a second (nil: at once). Size 0 → INVALID_COMMAND.
    package func step(
        up: Bool, size: UInt8, transitionTime: UInt16?, optionsMask: UInt8 = 0, optionsOverride: UInt8 = 0,
        withOnOff: Bool = false
    ) throws(StatusIB) {
        guard size > 0 else { throw StatusIB(.invalidCommand) }
        guard let current = currentLevel else { throw StatusIB(.failure) }
        if withOnOff {
            if up { onOffServer?.setFromLevelControl(true) }
        } else if !shouldExecute(optionsMask, optionsOverride) {
            return
        }
        let target =
            up
            ? UInt8(min(Int(current) + Int(size), Int(maxLevel)))
            : UInt8(max(Int(current) - Int(size), Int(minLevel)))
        startTransition(
            to: target, duration: UInt64(transitionTime ?? 0) * 100, purpose: .command(withOnOff: withOnOff))
    }

    /// Stop(WithOnOff): ends a transition where it is.
    package func stop(optionsMask: UInt8 = 0, optionsOverride: UInt8 = 0, withOnOff: Bool = false) {
        guard withOnOff || shouldExecute(optionsMask, optionsOverride) else { return }
        stopTransition()
    }

    /// The ExecuteIfOff rule: plain commands run while the endpoint's On/Off is off only if the
    /// effective ExecuteIfOff bit (the override's where the mask has it, else Options') is set.
    private func shouldExecute(_ mask: UInt8, _ override: UInt8) -> Bool {
        guard let onOff = onOffServer, !onOff.isOn else { return true }
        let bits = mask & Self.executeIfOff != 0 ? override : options
        return bits & Self.executeIfOff != 0
    }

    private var onOffServer: OnOffServer? { sibling(OnOffServer.self) }

    /// The On/Off server turned the endpoint on or off through its own commands.
    func onOffChanged(_ on: Bool) {
        guard let current = currentLevel else { return }
        if on {
            var stored = current
            if case .offFade(let restore)? = run?.purpose { stored = restore }
            let target = onLevel ?? stored
            let duration = UInt64(onTransitionTime ?? onOffTransitionTime) * 100
            if duration > 0 { setLevel(minLevel, force: true) }
            startTransition(to: target, duration: duration, purpose: .command(withOnOff: false))
        } else {
            let duration = UInt64(offTransitionTime ?? onOffTransitionTime) * 100
            guard duration > 0 || onLevel != nil else {
                stopTransition()
                return
            }
            startTransition(to: minLevel, duration: duration, purpose: .offFade(restore: current))
        }
    }

    // MARK: - Transitions

    private func startTransition(to target: UInt8, duration: UInt64, purpose: Purpose) {
        ticker.cancel()
        run = nil
        guard let current = currentLevel, duration > 0, current != target else {
            setLevel(target, force: true)
            setRemainingTime(0, byCommand: true)
            finish(at: target, purpose: purpose)
            return
        }
        let transition = Transition(from: [Int(current)], to: [Int(target)], duration: duration)
        run = Run(transition: transition, purpose: purpose)
        setRemainingTime(transition.remainingTenths, byCommand: true)
        ticker.start(after: Transition.tick)
    }

    private func stopTransition() {
        ticker.cancel()
        run = nil
        setRemainingTime(0, byCommand: true)
    }

    private func step() {
        guard var current = run else { return }
        current.transition.advance(by: Transition.tick)
        let level = UInt8(clamping: current.transition.values.first ?? Int(minLevel))
        if current.transition.isFinished {
            run = nil
            setLevel(level, force: true)
            setRemainingTime(0, byCommand: false)
            finish(at: level, purpose: current.purpose)
        } else {
            run = current
            setLevel(level, force: false)
            setRemainingTime(current.transition.remainingTenths, byCommand: false)
            ticker.start(after: Transition.tick)
        }
    }

    /// After a transition: the WithOnOff commands and the Off fade turn the endpoint off at MinLevel;
    /// the Off fade then restores the previous level for the next On (when OnLevel is null).
    private func finish(at level: UInt8, purpose: Purpose) {
        switch purpose {
        case .command(let withOnOff):
            if withOnOff, level == minLevel { onOffServer?.setFromLevelControl(false) }
        case .offFade(let restore):
            if onLevel == nil { setLevel(restore, force: true) }
        }
    }

    /// CurrentLevel jumps to the value as a local dial sets it (no transition; within MinLevel...MaxLevel,
    /// else CONSTRAINT_ERROR); other attributes as written.
    override package func setLocally(_ attribute: AttributeID, _ value: TLVValue) throws(StatusIB) {
        guard attribute == .LevelControl.currentLevel else { return try super.setLocally(attribute, value) }
        guard case .unsigned(let raw) = value, let level = UInt8(exactly: raw), level <= 254,
            clamp(level) == level
        else { throw StatusIB(.constraintError) }
        sibling(ScenesManagementServer.self)?.invalidateScenes()
        stop()
        setLevel(level, force: true)
    }

    private func setLevel(_ level: UInt8, force: Bool) {
        guard level != currentLevel else { return }
        currentLevel = level
        let reportable = levelReports.isReportable(now: now, force: force)
        if reportable { persist(.LevelControl.currentLevel, .unsigned(UInt64(level))) }
        attributeChanged(.LevelControl.currentLevel, quiet: !reportable)
    }

    private func setRemainingTime(_ tenths: UInt16, byCommand: Bool) {
        guard configuration.lighting, tenths != remainingTime else { return }
        remainingTime = tenths
        attributeChanged(
            .LevelControl.remainingTime, quiet: !remainingReports.isReportable(tenths, byCommand: byCommand))
    }

    override package func changeDescription(of attribute: AttributeID, value: TLVValue) -> String? {
        switch attribute {
        case .LevelControl.currentLevel: "level \(endpointID.rawValue): \(currentLevel.map(String.init) ?? "null")"
        case .LevelControl.remainingTime: nil
        default: super.changeDescription(of: attribute, value: value)
        }
    }
}

extension LevelControlServer: SceneParticipant {
    /// CurrentLevel, within MinLevel...MaxLevel.
    package var sceneAttributes: [SceneAttribute] {
        [SceneAttribute(.LevelControl.currentLevel, .unsigned8, range: Int64(minLevel)...Int64(maxLevel))]
    }

    package func currentSceneValues() -> [SceneAttributeValue] {
        guard let currentLevel else { return [] }
        return [SceneAttributeValue(.LevelControl.currentLevel, .unsigned8, Int64(currentLevel))]
    }

    /// Moves to the scene's level over the transition, whatever On/Off is (a scene is no plain command:
    /// the ExecuteIfOff rule does not apply, as in the SDK's level-control scene handler).
    package func recallScene(_ values: [SceneAttributeValue], transitionTime: UInt32) {
        guard let value = values.first(where: { $0.attribute == .LevelControl.currentLevel }) else { return }
        let target = clamp(UInt8(clamping: value.value))
        startTransition(to: target, duration: UInt64(transitionTime), purpose: .command(withOnOff: false))
    }
}
