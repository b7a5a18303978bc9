import MatterClusters
import MatterCore
import MatterTLV

extension Matter {
    /// The Identify cluster (0x0003).
    public struct IdentifyTrait: Trait {
        public static let clusterID: UInt32 = 0x0003
        public let part: DevicePart
        private static let cluster = ClusterID.identify

        public init(part: DevicePart) { self.part = part }

        /// The commands of the trait, for ``supports(_:)``.
        public enum Command: Sendable, Hashable, CaseIterable {
            case identify, triggerEffect

            var id: CommandID {
                switch self {
                case .identify: .Identify.identify
                case .triggerEffect: .Identify.triggerEffect
                }
            }
        }

        /// The trait's attributes, with their live values.
        public struct Attributes: Sendable {
            /// Seconds of identification left.
            @TraitAttribute<UInt16> public var identifyTime: UInt16?
            @TraitAttribute<UInt8> public var identifyType: UInt8?

            init(_ part: DevicePart) {
                let c = IdentifyTrait.cluster
                _identifyTime = TraitAttribute(
                    part, c, AttributeID.Identify.identifyTime, merge: .dynamic, decode: Decode.unsigned)
                _identifyType = TraitAttribute(
                    part, c, AttributeID.Identify.identifyType, merge: .common, decode: Decode.unsigned)
            }
        }

        /// The attributes' live values.
        public var attributes: Attributes { Attributes(part) }

        /// True when the device (for a group part: any member) accepts `command`.
        public func supports(_ command: Command) -> Bool { part.supports(Self.cluster, command.id) }

        /// Identify for `identifyTime` seconds (0 stops).
        public func identify(identifyTime: UInt16) async throws(HomeError) {
            try await part.invoke(Self.cluster, .Identify.identify, fields: [.field(0, UInt64(identifyTime))])
        }
    }
}
