import MatterClusters
import MatterCore
import MatterTLV

extension Matter {
    /// The ColorControl cluster (0x0300): colour temperature and XY colour.
    public struct ColorControlTrait: Trait {
        public static let clusterID: UInt32 = 0x0300
        public let part: DevicePart
        private static let cluster = ClusterID.colorControl

        public init(part: DevicePart) { self.part = part }

        /// The commands of the trait, for ``supports(_:)``.
        public enum Command: Sendable, Hashable, CaseIterable {
            case moveToColor, moveToColorTemperature

            var id: CommandID {
                switch self {
                case .moveToColor: .ColorControl.moveToColor
                case .moveToColorTemperature: .ColorControl.moveToColorTemperature
                }
            }
        }

        /// The Options attribute and the commands' OptionsMask and OptionsOverride.
        public struct OptionsBitmap: OptionSet, Sendable, Hashable {
            public let rawValue: UInt8
            public init(rawValue: UInt8) { self.rawValue = rawValue }
            /// Act even while the light is off.
            public static let executeIfOff = OptionsBitmap(rawValue: 0x01)
        }

        /// The trait's attributes, with their live values.
        public struct Attributes: Sendable {
            @TraitAttribute<UInt16> public var colorTemperatureMireds: UInt16?
            @TraitAttribute<UInt8> public var colorMode: UInt8?
            @TraitAttribute<UInt16> public var currentX: UInt16?
            @TraitAttribute<UInt16> public var currentY: UInt16?
            @TraitAttribute<UInt16> public var remainingTime: UInt16?
            @TraitAttribute<UInt16> public var colorCapabilities: UInt16?
            /// On a group part: the warmest limit every member reaches (the largest minimum).
            @TraitAttribute<UInt16> public var colorTempPhysicalMinMireds: UInt16?
            /// On a group part: the coolest limit every member reaches (the smallest maximum).
            @TraitAttribute<UInt16> public var colorTempPhysicalMaxMireds: UInt16?
            @TraitAttribute<UInt16> public var startUpColorTemperatureMireds: UInt16?
            @TraitAttribute<OptionsBitmap> public var options: OptionsBitmap?

            init(_ part: DevicePart) {
                let c = ColorControlTrait.cluster
                typealias A = AttributeID.ColorControl
                _colorTemperatureMireds = TraitAttribute(
                    part, c, A.colorTemperatureMireds, merge: .dynamic, decode: Decode.unsigned)
                _colorMode = TraitAttribute(part, c, A.colorMode, merge: .dynamic, decode: Decode.unsigned)
                _currentX = TraitAttribute(part, c, A.currentX, merge: .dynamic, decode: Decode.unsigned)
                _currentY = TraitAttribute(part, c, A.currentY, merge: .dynamic, decode: Decode.unsigned)
                _remainingTime = TraitAttribute(part, c, A.remainingTime, merge: .dynamic, decode: Decode.unsigned)
                _colorCapabilities = TraitAttribute(
                    part, c, A.colorCapabilities, merge: .common, decode: Decode.unsigned)
                _colorTempPhysicalMinMireds = TraitAttribute(
                    part, c, A.colorTempPhysicalMinMireds, merge: .largest, decode: Decode.unsigned)
                _colorTempPhysicalMaxMireds = TraitAttribute(
                    part, c, A.colorTempPhysicalMaxMireds, merge: .smallest, decode: Decode.unsigned)
                _startUpColorTemperatureMireds = TraitAttribute(
                    part, c, A.startUpColorTemperatureMireds, merge: .common, decode: Decode.unsigned)
                _options = TraitAttribute(part, c, A.options, merge: .common) {
                    Decode.unsigned($0).map(OptionsBitmap.init(rawValue:))
                }
            }
        }

        /// The attributes' live values.
        public var attributes: Attributes { Attributes(part) }

        /// True when the device (for a group part: any member) accepts `command`.
        public func supports(_ command: Command) -> Bool { part.supports(Self.cluster, command.id) }
        public var supportsMoveToColorTemperatureCommand: Bool { supports(.moveToColorTemperature) }

        /// MoveToColorTemperature over `transitionTime` tenths of a second.
        public func moveToColorTemperature(
            colorTemperatureMireds: UInt16, transitionTime: UInt16, optionsMask: OptionsBitmap,
            optionsOverride: OptionsBitmap
        ) async throws(HomeError) {
            try await part.invoke(
                Self.cluster, .ColorControl.moveToColorTemperature,
                fields: [
                    .field(0, UInt64(colorTemperatureMireds)), .field(1, UInt64(transitionTime)),
                    .field(2, UInt64(optionsMask.rawValue)), .field(3, UInt64(optionsOverride.rawValue)),
                ])
        }

        /// MoveToColor (CIE 1931 x and y, scaled by 65536) over `transitionTime` tenths of a second.
        public func moveToColor(
            colorX: UInt16, colorY: UInt16, transitionTime: UInt16, optionsMask: OptionsBitmap,
            optionsOverride: OptionsBitmap
        ) async throws(HomeError) {
            try await part.invoke(
                Self.cluster, .ColorControl.moveToColor,
                fields: [
                    .field(0, UInt64(colorX)), .field(1, UInt64(colorY)), .field(2, UInt64(transitionTime)),
                    .field(3, UInt64(optionsMask.rawValue)), .field(4, UInt64(optionsOverride.rawValue)),
                ])
        }

        /// The writable attributes, set in ``update(_:)``.
        public struct Mutator: Sendable {
            var writes: [(AttributeID, TLVValue)] = []

            public mutating func setOptions(_ value: OptionsBitmap) {
                writes.append((AttributeID.ColorControl.options, .unsigned(UInt64(value.rawValue))))
            }
            public mutating func setStartUpColorTemperatureMireds(_ value: UInt16?) {
                writes.append(
                    (
                        AttributeID.ColorControl.startUpColorTemperatureMireds,
                        value.map { .unsigned(UInt64($0)) } ?? .null
                    ))
            }
        }

        /// Writes the attributes `body` sets; returns the trait with the values read back.
        @discardableResult
        public func update(_ body: (inout Mutator) -> Void) async throws(HomeError) -> ColorControlTrait {
            var mutator = Mutator()
            body(&mutator)
            try await part.write(Self.cluster, mutator.writes)
            return self
        }
    }
}
