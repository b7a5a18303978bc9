import MatterClusters
import MatterCore
import MatterTLV

extension Matter {
    /// The LevelControl cluster (0x0008).
    public struct LevelControlTrait: Trait {
        public static let clusterID: UInt32 = 0x0008
        public let part: DevicePart
        private static let cluster = ClusterID.levelControl

        public init(part: DevicePart) { self.part = part }

        /// The commands of the trait, for ``supports(_:)``.
        public enum Command: Sendable, Hashable, CaseIterable {
            case moveToLevel, move, step, stop, moveToLevelWithOnOff, moveWithOnOff, stepWithOnOff, stopWithOnOff

            var id: CommandID {
                switch self {
                case .moveToLevel: .LevelControl.moveToLevel
                case .move: .LevelControl.move
                case .step: .LevelControl.step
                case .stop: .LevelControl.stop
                case .moveToLevelWithOnOff: .LevelControl.moveToLevelWithOnOff
                case .moveWithOnOff: .LevelControl.moveWithOnOff
                case .stepWithOnOff: .LevelControl.stepWithOnOff
                case .stopWithOnOff: .LevelControl.stopWithOnOff
                }
            }
        }

        /// The Options attribute and the commands' OptionsMask and OptionsOverride.
        public struct OptionsBitmap: OptionSet, Sendable, Hashable {
            public let rawValue: UInt8
            public init(rawValue: UInt8) { self.rawValue = rawValue }
            /// Act even while the light is off.
            public static let executeIfOff = OptionsBitmap(rawValue: 0x01)
            /// Move the colour temperature with the level.
            public static let coupleColorTempToLevel = OptionsBitmap(rawValue: 0x02)
        }

        /// The trait's attributes, with their live values.
        public struct Attributes: Sendable {
            @TraitAttribute<UInt8> public var currentLevel: UInt8?
            @TraitAttribute<UInt16> public var remainingTime: UInt16?
            @TraitAttribute<UInt8> public var minLevel: UInt8?
            @TraitAttribute<UInt8> public var maxLevel: UInt8?
            @TraitAttribute<OptionsBitmap> public var options: OptionsBitmap?
            @TraitAttribute<UInt16> public var onOffTransitionTime: UInt16?
            @TraitAttribute<UInt8> public var onLevel: UInt8?
            @TraitAttribute<UInt8> public var startUpCurrentLevel: UInt8?

            init(_ part: DevicePart) {
                let c = LevelControlTrait.cluster
                typealias A = AttributeID.LevelControl
                _currentLevel = TraitAttribute(part, c, A.currentLevel, merge: .dynamic, decode: Decode.unsigned)
                _remainingTime = TraitAttribute(part, c, A.remainingTime, merge: .dynamic, decode: Decode.unsigned)
                _minLevel = TraitAttribute(part, c, A.minLevel, merge: .largest, decode: Decode.unsigned)
                _maxLevel = TraitAttribute(part, c, A.maxLevel, merge: .smallest, decode: Decode.unsigned)
                _options = TraitAttribute(part, c, A.options, merge: .common) {
                    Decode.unsigned($0).map(OptionsBitmap.init(rawValue:))
                }
                _onOffTransitionTime = TraitAttribute(
                    part, c, A.onOffTransitionTime, merge: .common, decode: Decode.unsigned)
                _onLevel = TraitAttribute(part, c, A.onLevel, merge: .common, decode: Decode.unsigned)
                _startUpCurrentLevel = TraitAttribute(
                    part, c, A.startUpCurrentLevel, merge: .common, decode: Decode.unsigned)
            }
        }

        /// The attributes' live values.
        public var attributes: Attributes { Attributes(part) }

        /// True when the device (for a group part: any member) accepts `command`.
        public func supports(_ command: Command) -> Bool { part.supports(Self.cluster, command.id) }
        public var supportsMoveToLevelCommand: Bool { supports(.moveToLevel) }
        public var supportsMoveToLevelWithOnOffCommand: Bool { supports(.moveToLevelWithOnOff) }

        /// MoveToLevel: `level` over `transitionTime` tenths of a second (nil: the device's
        /// OnOffTransitionTime).
        public func moveToLevel(
            level: UInt8, transitionTime: UInt16?, optionsMask: OptionsBitmap, optionsOverride: OptionsBitmap
        ) async throws(HomeError) {
            try await part.invoke(
                Self.cluster, .LevelControl.moveToLevel,
                fields: Self.fields(level, transitionTime, optionsMask, optionsOverride))
        }

        /// MoveToLevelWithOnOff: as ``moveToLevel(level:transitionTime:optionsMask:optionsOverride:)``,
        /// turning the light on (or off at the minimum level).
        public func moveToLevelWithOnOff(
            level: UInt8, transitionTime: UInt16?, optionsMask: OptionsBitmap, optionsOverride: OptionsBitmap
        ) async throws(HomeError) {
            try await part.invoke(
                Self.cluster, .LevelControl.moveToLevelWithOnOff,
                fields: Self.fields(level, transitionTime, optionsMask, optionsOverride))
        }

        private static func fields(
            _ level: UInt8, _ transitionTime: UInt16?, _ mask: OptionsBitmap, _ override: OptionsBitmap
        ) -> [TLVElement] {
            [
                .field(0, UInt64(level)), .field(1, transitionTime.map { .unsigned(UInt64($0)) } ?? .null),
                .field(2, UInt64(mask.rawValue)), .field(3, UInt64(override.rawValue)),
            ]
        }

        /// The writable attributes, set in ``update(_:)``.
        public struct Mutator: Sendable {
            var writes: [(AttributeID, TLVValue)] = []

            public mutating func setOptions(_ value: OptionsBitmap) {
                writes.append((AttributeID.LevelControl.options, .unsigned(UInt64(value.rawValue))))
            }
            public mutating func setOnOffTransitionTime(_ value: UInt16) {
                writes.append((AttributeID.LevelControl.onOffTransitionTime, .unsigned(UInt64(value))))
            }
            public mutating func setOnLevel(_ value: UInt8?) {
                writes.append((AttributeID.LevelControl.onLevel, value.map { .unsigned(UInt64($0)) } ?? .null))
            }
            public mutating func setStartUpCurrentLevel(_ value: UInt8?) {
                writes.append(
                    (AttributeID.LevelControl.startUpCurrentLevel, value.map { .unsigned(UInt64($0)) } ?? .null))
            }
        }

        /// Writes the attributes `body` sets; returns the trait with the values read back.
        @discardableResult
        public func update(_ body: (inout Mutator) -> Void) async throws(HomeError) -> LevelControlTrait {
            var mutator = Mutator()
            body(&mutator)
            try await part.write(Self.cluster, mutator.writes)
            return self
        }
    }
}
