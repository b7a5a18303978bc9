import MatterClusters
package import MatterCore
package import MatterInteraction
package import MatterTLV

/// Color Control 0x0300 (rev 8) with the ColorTemperature feature (CT), and optionally XY for
/// extended colour lights: MoveToColorTemperature, MoveColorTemperature, StepColorTemperature,
/// StopMoveStep (and MoveToColor, MoveColor, StepColor with XY), transitions over time like Level Control's, the
/// ExecuteIfOff rule, StartUpColorTemperatureMireds applied at boot, colour state persisted.
/// Coupling of colour temperature to level (Level Control's Options bit 1) is not implemented.
package final class ColorControlServer: ClusterServer {
    /// Construction parameters.
    package struct Configuration: Hashable, Sendable {
        /// The XY feature (CurrentX/CurrentY, MoveToColor): Extended Color Light.
        package var xy = false
        /// ColorTempPhysicalMinMireds (coolest).
        package var physicalMinMireds: UInt16 = 153
        /// ColorTempPhysicalMaxMireds (warmest).
        package var physicalMaxMireds: UInt16 = 500
        /// CoupleColorTempToLevelMinMireds.
        package var coupleColorTempToLevelMinMireds: UInt16 = 153
        /// ColorTemperatureMireds before anything is persisted.
        package var initialMireds: UInt16 = 250

        package init(xy: Bool = false) { self.xy = xy }
    }

    /// ColorModeEnum values.
    package enum ColorMode: UInt8, Sendable {
        case hueSaturation = 0
        case xy = 1
        case colorTemperature = 2
    }

    private enum Channel: Hashable {
        case temperature
        case xy
    }

    private struct Run {
        var transition: Transition
        var channel: Channel
    }

    package let configuration: Configuration
    /// ColorTemperatureMireds.
    package private(set) var colorTemperatureMireds: UInt16
    /// CurrentX, CurrentY (XY feature).
    package private(set) var currentX: UInt16 = 24939
    package private(set) var currentY: UInt16 = 24701
    /// ColorMode (EnhancedColorMode follows it).
    package private(set) var colorMode: ColorMode = .colorTemperature
    /// Options (bit 0 ExecuteIfOff).
    package private(set) var options: UInt8 = 0
    /// RemainingTime, 1/10 s.
    package private(set) var remainingTime: UInt16 = 0
    /// StartUpColorTemperatureMireds (nil: keep the previous value).
    package private(set) var startUpColorTemperatureMireds: UInt16?

    private var run: Run?
    private var temperatureReports = ReportThrottle()
    private var xyReports = ReportThrottle()
    private var remainingReports = RemainingTimeReporting()
    private lazy var ticker = makeTimer { [unowned self] in self.step() }

    package init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.colorTemperatureMireds = configuration.initialMireds
        super.init(
            id: .colorControl, revision: ClusterSchema.colorControl.revision,
            featureMap: 0x10 | (configuration.xy ? 0x08 : 0))
    }

    /// ColorCapabilities (mirrors the features).
    package var colorCapabilities: UInt16 { UInt16(featureMap) }

    override package var attributes: [AttributeInfo] {
        typealias A = AttributeID.ColorControl
        var ids: [AttributeID] = [A.remainingTime]
        if configuration.xy { ids += [A.currentX, A.currentY] }
        ids += [
            A.colorTemperatureMireds, A.colorMode, A.options, A.numberOfPrimaries, A.enhancedColorMode,
            A.colorCapabilities, A.colorTempPhysicalMinMireds, A.colorTempPhysicalMaxMireds,
            A.coupleColorTempToLevelMinMireds, A.startUpColorTemperatureMireds,
        ]
        return Self.attributeInfos(.colorControl, ids)
    }

    override package var acceptedCommands: [CommandInfo] {
        typealias C = CommandID.ColorControl
        var ids: [CommandID] = []
        if configuration.xy { ids += [C.moveToColor, C.moveColor, C.stepColor] }
        ids += [C.moveToColorTemperature, C.stopMoveStep, C.moveColorTemperature, C.stepColorTemperature]
        return Self.commandInfos(.colorControl, ids)
    }

    // MARK: - Lifecycle

    override package func start() {
        typealias A = AttributeID.ColorControl
        if let value = loadPersisted(A.colorTemperatureMireds).flatMap(Self.uint16) { colorTemperatureMireds = value }
        if configuration.xy {
            if let value = loadPersisted(A.currentX).flatMap(Self.uint16) { currentX = value }
            if let value = loadPersisted(A.currentY).flatMap(Self.uint16) { currentY = value }
        }
        if let raw = loadPersisted(A.colorMode).flatMap(Self.uint16),
            let mode = UInt8(exactly: raw).flatMap(ColorMode.init),
            mode != .hueSaturation, mode != .xy || configuration.xy
        {
            colorMode = mode
        }
        if let value = loadPersisted(A.options).flatMap(Self.uint16), let byte = UInt8(exactly: value) {
            options = byte
        }
        startUpColorTemperatureMireds = loadPersisted(A.startUpColorTemperatureMireds).flatMap(Self.uint16)
        if let startUp = startUpColorTemperatureMireds {
            colorTemperatureMireds = startUp
            colorMode = .colorTemperature
        }
        colorTemperatureMireds = clampMireds(colorTemperatureMireds)
        persist(A.colorTemperatureMireds, .unsigned(UInt64(colorTemperatureMireds)))
        persist(A.colorMode, .unsigned(UInt64(colorMode.rawValue)))
    }

    override package func stop() {
        ticker.cancel()
        run = nil
    }

    private static func uint16(_ value: TLVValue) -> UInt16? {
        if case .unsigned(let raw) = value { UInt16(exactly: raw) } else { nil }
    }

    private func clampMireds(_ mireds: UInt16) -> UInt16 {
        min(max(mireds, configuration.physicalMinMireds), configuration.physicalMaxMireds)
    }

    // MARK: - Attributes

    override package func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        typealias A = AttributeID.ColorControl
        switch attribute {
        case A.remainingTime: return .unsigned(UInt64(remainingTime))
        case A.currentX where configuration.xy: return .unsigned(UInt64(currentX))
        case A.currentY where configuration.xy: return .unsigned(UInt64(currentY))
        case A.colorTemperatureMireds: return .unsigned(UInt64(colorTemperatureMireds))
        case A.colorMode, A.enhancedColorMode: return .unsigned(UInt64(colorMode.rawValue))
        case A.options: return .unsigned(UInt64(options))
        case A.numberOfPrimaries: return .unsigned(0)
        case A.colorCapabilities: return .unsigned(UInt64(colorCapabilities))
        case A.colorTempPhysicalMinMireds: return .unsigned(UInt64(configuration.physicalMinMireds))
        case A.colorTempPhysicalMaxMireds: return .unsigned(UInt64(configuration.physicalMaxMireds))
        case A.coupleColorTempToLevelMinMireds: return .unsigned(UInt64(configuration.coupleColorTempToLevelMinMireds))
        case A.startUpColorTemperatureMireds:
            return startUpColorTemperatureMireds.map { .unsigned(UInt64($0)) } ?? .null
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    override package func write(_ attribute: AttributeID, _ write: AttributeWrite, context: InteractionContext)
        throws(StatusIB)
    {
        typealias A = AttributeID.ColorControl
        let value = WriteValue(write)
        switch attribute {
        case A.options:
            let new = try value.unsigned(UInt8.self)
            guard new != options else { return }
            options = new
            persist(attribute, .unsigned(UInt64(new)))
        case A.startUpColorTemperatureMireds:
            let new = try value.nullableUnsigned(UInt16.self)
            if let new, new == 0 || new > 0xFEFF { throw StatusIB(.constraintError) }
            guard new != startUpColorTemperatureMireds else { return }
            startUpColorTemperatureMireds = new
            persist(attribute, value.value)
        default:
            throw StatusIB(.unsupportedWrite)
        }
        attributeChanged(attribute)
    }

    // MARK: - Commands

    override package func invoke(_ command: CommandID, fields: CommandFields, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        typealias C = CommandID.ColorControl
        sibling(ScenesManagementServer.self)?.invalidateScenes()
        switch command {
        case C.moveToColorTemperature:
            try moveToColorTemperature(
                try fields.unsigned(0), transitionTime: try fields.unsigned(1),
                optionsMask: try fields.optionalUnsigned(2) ?? 0, optionsOverride: try fields.optionalUnsigned(3) ?? 0)
        case C.moveColorTemperature:
            let mode = try fields.unsigned(0, UInt8.self)
            let rate = try fields.unsigned(1, UInt16.self)
            let lower = try fields.unsigned(2, UInt16.self)
            let upper = try fields.unsigned(3, UInt16.self)
            guard mode == 0 || mode == 1 || mode == 3 else { throw StatusIB(.constraintError) }
            if mode != 0, rate == 0 { throw StatusIB(.invalidCommand) }
            guard shouldExecute(try fields.optionalUnsigned(4) ?? 0, try fields.optionalUnsigned(5) ?? 0) else {
                return nil
            }
            guard mode != 0 else {
                stopTransition()
                return nil
            }
            let (minimum, maximum) = bounds(lower, upper)
            let target = mode == 1 ? maximum : minimum
            let distance = UInt64(abs(Int(target) - Int(colorTemperatureMireds)))
            moveTemperature(to: target, duration: distance * 1000 / UInt64(rate))
        case C.stepColorTemperature:
            let mode = try fields.unsigned(0, UInt8.self)
            let size = try fields.unsigned(1, UInt16.self)
            let transition = try fields.unsigned(2, UInt16.self)
            let lower = try fields.unsigned(3, UInt16.self)
            let upper = try fields.unsigned(4, UInt16.self)
            guard mode == 1 || mode == 3 else { throw StatusIB(.constraintError) }
            guard size > 0 else { throw StatusIB(.invalidCommand) }
            guard transition <= 0xFFFE else { throw StatusIB(.constraintError) }
            guard shouldExecute(try fields.optionalUnsigned(5) ?? 0, try fields.optionalUnsigned(6) ?? 0) else {
                return nil
            }
            let (minimum, maximum) = bounds(lower, upper)
            let current = Int(colorTemperatureMireds)
            let target = mode == 1 ? min(current + Int(size), Int(maximum)) : max(current - Int(size), Int(minimum))
            moveTemperature(to: UInt16(clamping: target), duration: UInt64(transition) * 100)
        case C.stopMoveStep:
            guard shouldExecute(try fields.optionalUnsigned(0) ?? 0, try fields.optionalUnsigned(1) ?? 0) else {
                return nil
            }
            stopTransition()
        case C.moveToColor where configuration.xy:
            let x = try fields.unsigned(0, UInt16.self)
            let y = try fields.unsigned(1, UInt16.self)
            let transition = try fields.unsigned(2, UInt16.self)
            guard x <= 0xFEFF, y <= 0xFEFF, transition <= 0xFFFE else { throw StatusIB(.constraintError) }
            guard shouldExecute(try fields.optionalUnsigned(3) ?? 0, try fields.optionalUnsigned(4) ?? 0) else {
                return nil
            }
            setMode(.xy)
            startTransition(
                channel: .xy, from: [Int(currentX), Int(currentY)], to: [Int(x), Int(y)],
                duration: UInt64(transition) * 100)
        case C.moveColor where configuration.xy:
            let rates = [try fields.signed(0, Int16.self), try fields.signed(1, Int16.self)]
            guard shouldExecute(try fields.optionalUnsigned(2) ?? 0, try fields.optionalUnsigned(3) ?? 0) else {
                return nil
            }
            guard rates != [0, 0] else {  // both rates 0: stop moving, no mode change
                stopTransition()
                return nil
            }
            // Each axis at its own rate (units per second) towards the bound in its direction.
            setMode(.xy)
            let start = [Int(currentX), Int(currentY)]
            let targets = zip(start, rates).map { value, rate in rate > 0 ? Self.maxXY : rate < 0 ? 0 : value }
            let durations = zip(zip(start, targets), rates).map { ends, rate -> UInt64 in
                rate == 0 ? 0 : UInt64(abs(ends.1 - ends.0)) * 1000 / UInt64(abs(Int(rate)))
            }
            startTransition(channel: .xy, from: start, to: targets, durations: durations)
        case C.stepColor where configuration.xy:
            let steps = [Int(try fields.signed(0, Int16.self)), Int(try fields.signed(1, Int16.self))]
            let transition = try fields.unsigned(2, UInt16.self)
            guard transition <= 0xFFFE else { throw StatusIB(.constraintError) }
            guard shouldExecute(try fields.optionalUnsigned(3) ?? 0, try fields.optionalUnsigned(4) ?? 0) else {
                return nil
            }
            setMode(.xy)
            let start = [Int(currentX), Int(currentY)]
            startTransition(
                channel: .xy, from: start, to: zip(start, steps).map { min(max($0 + $1, 0), Self.maxXY) },
                duration: UInt64(transition) * 100)
        default:
            throw StatusIB(.unsupportedCommand)
        }
        return nil
    }

    /// MoveToColorTemperature: to `mireds` (clamped to the physical range) over `transitionTime`
    /// tenths of a second (≤ 65534).
    package func moveToColorTemperature(
        _ mireds: UInt16, transitionTime: UInt16, optionsMask: UInt8 = 0, optionsOverride: UInt8 = 0
    ) throws(StatusIB) {
        guard transitionTime <= 0xFFFE else { throw StatusIB(.constraintError) }
        guard shouldExecute(optionsMask, optionsOverride) else { return }
        moveTemperature(to: clampMireds(mireds), duration: UInt64(transitionTime) * 100)
    }

    /// The limits of a move or step: the fields, or the physical limits where a field is 0 or beyond.
    private func bounds(_ lower: UInt16, _ upper: UInt16) -> (UInt16, UInt16) {
        let minimum = lower == 0 ? configuration.physicalMinMireds : clampMireds(lower)
        let maximum = upper == 0 ? configuration.physicalMaxMireds : clampMireds(upper)
        return (minimum, max(minimum, maximum))
    }

    private func moveTemperature(to target: UInt16, duration: UInt64) {
        setMode(.colorTemperature)
        startTransition(
            channel: .temperature, from: [Int(colorTemperatureMireds)], to: [Int(target)], duration: duration)
    }

    /// The ExecuteIfOff rule, as Level Control's.
    private func shouldExecute(_ mask: UInt8, _ override: UInt8) -> Bool {
        guard let onOff = sibling(OnOffServer.self), !onOff.isOn else { return true }
        let bits = mask & 0x01 != 0 ? override : options
        return bits & 0x01 != 0
    }

    private func setMode(_ mode: ColorMode) {
        guard mode != colorMode else { return }
        colorMode = mode
        persist(.ColorControl.colorMode, .unsigned(UInt64(mode.rawValue)))
        attributesChanged([.ColorControl.colorMode, .ColorControl.enhancedColorMode])
    }

    // MARK: - Transitions

    /// CurrentX and CurrentY go up to 0xFEFF.
    static let maxXY = 0xFEFF

    private func startTransition(channel: Channel, from start: [Int], to target: [Int], duration: UInt64) {
        startTransition(channel: channel, from: start, to: target, durations: start.map { _ in duration })
    }

    private func startTransition(channel: Channel, from start: [Int], to target: [Int], durations: [UInt64]) {
        ticker.cancel()
        run = nil
        guard durations.contains(where: { $0 > 0 }), start != target else {
            apply(target, channel: channel, force: true)
            setRemainingTime(0, byCommand: true)
            return
        }
        let transition = Transition(from: start, to: target, durations: durations)
        run = Run(transition: transition, channel: channel)
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
        let finished = current.transition.isFinished
        run = finished ? nil : current
        apply(current.transition.values, channel: current.channel, force: finished)
        setRemainingTime(current.transition.remainingTenths, byCommand: false)
        if !finished { ticker.start(after: Transition.tick) }
    }

    private func apply(_ values: [Int], channel: Channel, force: Bool) {
        switch channel {
        case .temperature:
            let mireds = UInt16(clamping: values.first ?? Int(colorTemperatureMireds))
            guard mireds != colorTemperatureMireds else { return }
            colorTemperatureMireds = mireds
            let reportable = temperatureReports.isReportable(now: now, force: force)
            if reportable { persist(.ColorControl.colorTemperatureMireds, .unsigned(UInt64(mireds))) }
            attributeChanged(.ColorControl.colorTemperatureMireds, quiet: !reportable)
        case .xy:
            let x = UInt16(clamping: values.first ?? Int(currentX))
            let y = UInt16(clamping: values.dropFirst().first ?? Int(currentY))
            guard x != currentX || y != currentY else { return }
            currentX = x
            currentY = y
            let reportable = xyReports.isReportable(now: now, force: force)
            if reportable {
                persist(.ColorControl.currentX, .unsigned(UInt64(x)))
                persist(.ColorControl.currentY, .unsigned(UInt64(y)))
            }
            attributesChanged([.ColorControl.currentX, .ColorControl.currentY], quiet: !reportable)
        }
    }

    private func setRemainingTime(_ tenths: UInt16, byCommand: Bool) {
        guard tenths != remainingTime else { return }
        remainingTime = tenths
        attributeChanged(
            .ColorControl.remainingTime, quiet: !remainingReports.isReportable(tenths, byCommand: byCommand))
    }

    override package func changeDescription(of attribute: AttributeID, value: TLVValue) -> String? {
        switch attribute {
        case .ColorControl.colorTemperatureMireds:
            "color-temperature \(endpointID.rawValue): \(colorTemperatureMireds) mireds"
        case .ColorControl.currentX: "color \(endpointID.rawValue): x \(currentX) y \(currentY)"
        case .ColorControl.remainingTime, .ColorControl.enhancedColorMode, .ColorControl.currentY: nil
        default: super.changeDescription(of: attribute, value: value)
        }
    }
}

extension ColorControlServer: SceneParticipant {
    /// CurrentX and CurrentY (XY), ColorTemperatureMireds (within the physical range) and
    /// EnhancedColorMode (a mode this light has), as the SDK's color-control scene handler stores them.
    package var sceneAttributes: [SceneAttribute] {
        typealias A = AttributeID.ColorControl
        var list: [SceneAttribute] = []
        if configuration.xy {
            list += [
                SceneAttribute(A.currentX, .unsigned16, range: 0...Int64(Self.maxXY)),
                SceneAttribute(A.currentY, .unsigned16, range: 0...Int64(Self.maxXY)),
            ]
        }
        list += [
            SceneAttribute(
                A.colorTemperatureMireds, .unsigned16,
                range: Int64(configuration.physicalMinMireds)...Int64(configuration.physicalMaxMireds)),
            SceneAttribute(
                A.enhancedColorMode, .unsigned8,
                range: Int64(
                    configuration.xy ? ColorMode.xy.rawValue : ColorMode.colorTemperature.rawValue)...Int64(
                        ColorMode.colorTemperature.rawValue)),
        ]
        return list
    }

    package func currentSceneValues() -> [SceneAttributeValue] {
        typealias A = AttributeID.ColorControl
        var list: [SceneAttributeValue] = []
        if configuration.xy {
            list += [
                SceneAttributeValue(A.currentX, .unsigned16, Int64(currentX)),
                SceneAttributeValue(A.currentY, .unsigned16, Int64(currentY)),
            ]
        }
        list += [
            SceneAttributeValue(A.colorTemperatureMireds, .unsigned16, Int64(colorTemperatureMireds)),
            SceneAttributeValue(A.enhancedColorMode, .unsigned8, Int64(colorMode.rawValue)),
        ]
        return list
    }

    /// Moves to the scene's colour in the scene's mode (EnhancedColorMode; without it XY when the scene
    /// has x and y, else colour temperature) over the transition.
    package func recallScene(_ values: [SceneAttributeValue], transitionTime: UInt32) {
        typealias A = AttributeID.ColorControl
        func value(_ id: AttributeID) -> Int64? { values.first { $0.attribute == id }?.value }
        let x = value(A.currentX)
        let y = value(A.currentY)
        let mireds = value(A.colorTemperatureMireds)
        var mode = value(A.enhancedColorMode).flatMap { UInt8(exactly: $0) }.flatMap(ColorMode.init)
        if mode == nil { mode = x != nil || y != nil ? .xy : .colorTemperature }
        let duration = UInt64(transitionTime)
        if mode == .xy, configuration.xy, x != nil || y != nil {
            setMode(.xy)
            let target = [Int(x ?? Int64(currentX)), Int(y ?? Int64(currentY))].map { min(max($0, 0), Self.maxXY) }
            startTransition(channel: .xy, from: [Int(currentX), Int(currentY)], to: target, duration: duration)
        } else if let mireds {
            moveTemperature(to: clampMireds(UInt16(clamping: mireds)), duration: duration)
        }
    }
}
