public import MatterClusters
import MatterCore
import MatterTLV

extension Matter {
    /// The OnOff cluster (0x0006).
    public struct OnOffTrait: Trait {
        public static let clusterID: UInt32 = 0x0006
        public let part: DevicePart
        private static let cluster = ClusterID.onOff

        public init(part: DevicePart) { self.part = part }

        /// The commands of the trait, for ``supports(_:)``.
        public enum Command: Sendable, Hashable, CaseIterable {
            case off, on, toggle, offWithEffect, onWithRecallGlobalScene, onWithTimedOff

            var id: CommandID {
                switch self {
                case .off: .OnOff.off
                case .on: .OnOff.on
                case .toggle: .OnOff.toggle
                case .offWithEffect: .OnOff.offWithEffect
                case .onWithRecallGlobalScene: .OnOff.onWithRecallGlobalScene
                case .onWithTimedOff: .OnOff.onWithTimedOff
                }
            }
        }

        /// OffWithEffect's effect.
        public typealias EffectIdentifierEnum = Clusters.OnOff.EffectIdentifierEnum

        /// StartUpOnOff's values.
        public typealias StartUpOnOffEnum = Clusters.OnOff.StartUpOnOffEnum

        /// The trait's attributes, with their live values.
        public struct Attributes: Sendable {
            @TraitAttribute<Bool> public var onOff: Bool?
            @TraitAttribute<Bool> public var globalSceneControl: Bool?
            @TraitAttribute<UInt16> public var onTime: UInt16?
            @TraitAttribute<UInt16> public var offWaitTime: UInt16?
            @TraitAttribute<StartUpOnOffEnum> public var startUpOnOff: StartUpOnOffEnum?

            init(_ part: DevicePart) {
                let c = OnOffTrait.cluster
                _onOff = TraitAttribute(part, c, .OnOff.onOff, merge: .dynamic, decode: Decode.bool)
                _globalSceneControl = TraitAttribute(
                    part, c, .OnOff.globalSceneControl, merge: .dynamic, decode: Decode.bool)
                _onTime = TraitAttribute(part, c, .OnOff.onTime, merge: .dynamic, decode: Decode.unsigned)
                _offWaitTime = TraitAttribute(part, c, .OnOff.offWaitTime, merge: .dynamic, decode: Decode.unsigned)
                _startUpOnOff = TraitAttribute(part, c, .OnOff.startUpOnOff, merge: .common, decode: Decode.raw)
            }
        }

        /// The attributes' live values.
        public var attributes: Attributes { Attributes(part) }

        /// True when the device (for a group part: any member) accepts `command`.
        public func supports(_ command: Command) -> Bool { part.supports(Self.cluster, command.id) }
        public var supportsOffCommand: Bool { supports(.off) }
        public var supportsOnCommand: Bool { supports(.on) }
        public var supportsToggleCommand: Bool { supports(.toggle) }
        public var supportsOffWithEffectCommand: Bool { supports(.offWithEffect) }

        /// On: `onOff` becomes true.
        public func on() async throws(HomeError) { try await part.invoke(Self.cluster, .OnOff.on) }

        /// Off: `onOff` becomes false.
        public func off() async throws(HomeError) { try await part.invoke(Self.cluster, .OnOff.off) }

        /// Toggle: `onOff` flips.
        public func toggle() async throws(HomeError) { try await part.invoke(Self.cluster, .OnOff.toggle) }

        /// OffWithEffect: off, with a fade the effect and its variant describe.
        public func offWithEffect(effectIdentifier: EffectIdentifierEnum, effectVariant: UInt8) async throws(HomeError)
        {
            try await part.invoke(
                Self.cluster, .OnOff.offWithEffect,
                fields: [.field(0, UInt64(effectIdentifier.rawValue)), .field(1, UInt64(effectVariant))])
        }

        /// The writable attributes, set in ``update(_:)``.
        public struct Mutator: Sendable {
            var writes: [(AttributeID, TLVValue)] = []

            public mutating func setStartUpOnOff(_ value: StartUpOnOffEnum?) {
                writes.append((.OnOff.startUpOnOff, value.map { .unsigned(UInt64($0.rawValue)) } ?? .null))
            }
            public mutating func setOnTime(_ value: UInt16) { writes.append((.OnOff.onTime, .unsigned(UInt64(value)))) }
            public mutating func setOffWaitTime(_ value: UInt16) {
                writes.append((.OnOff.offWaitTime, .unsigned(UInt64(value))))
            }
        }

        /// Writes the attributes `body` sets; returns the trait with the values read back.
        /// - Throws: `invalidArgument` for an attribute the device does not have, or a group part.
        @discardableResult
        public func update(_ body: (inout Mutator) -> Void) async throws(HomeError) -> OnOffTrait {
            var mutator = Mutator()
            body(&mutator)
            try await part.write(Self.cluster, mutator.writes)
            return self
        }
    }
}
