import MatterCore
package import MatterTLV

/// What a ``DeviceGroup``'s part offers, for tools (the CLI's `group parts`): its device type, and for
/// each of its traits the commands some member accepts and the capability attributes (settings and
/// limits, never dynamic state) as the group part shows them.
package struct GroupPartSummary: Sendable {
    /// One trait of the part.
    package struct TraitSummary: Sendable {
        /// The trait's type name: `OnOffTrait`.
        package let name: String
        /// The Matter cluster ID.
        package let clusterID: UInt32
        /// The trait's commands some member accepts, by their Swift names (`moveToLevelWithOnOff`).
        package let commands: [String]
        /// The capability attributes some member has, by their Swift names, with the value the group
        /// part shows (nil when the members disagree or it is null).
        package let attributes: [(name: String, value: TLVValue?)]
    }

    /// The device type's Swift name: `DimmableLightDeviceType`.
    package let deviceType: String
    /// The Matter device type ID.
    package let deviceTypeID: UInt32
    package let traits: [TraitSummary]
}

/// A trait's command enum, for summaries.
protocol TraitCommandCase: CaseIterable {
    var id: CommandID { get }
}

extension Matter.OnOffTrait.Command: TraitCommandCase {}
extension Matter.LevelControlTrait.Command: TraitCommandCase {}
extension Matter.ColorControlTrait.Command: TraitCommandCase {}
extension Matter.DoorLockTrait.Command: TraitCommandCase {}
extension Matter.IdentifyTrait.Command: TraitCommandCase {}

/// A trait attribute, whatever its value type.
protocol SummarizedAttribute {
    var merge: GroupMerge { get }
    var isSupported: Bool { get }
    var mergedValue: TLVValue? { get }
}

extension TraitAttribute: SummarizedAttribute {
    var mergedValue: TLVValue? { part.value(cluster, attribute, merge: merge) }
}

extension DeviceGroup {
    /// The group's parts (one per device type a member has), each with its traits' commands and
    /// capability attributes. Waits for each member's first report (or its failure).
    package func partSummaries() async -> [GroupPartSummary] {
        var summaries: [GroupPartSummary] = []
        func add<T: DeviceType>(_ type: T.Type) async {
            guard let part = await part(type) else { return }
            summaries.append(Self.summary(of: part))
        }
        await add(OnOffLightDeviceType.self)
        await add(DimmableLightDeviceType.self)
        await add(ColorTemperatureLightDeviceType.self)
        await add(ExtendedColorLightDeviceType.self)
        await add(OnOffPluginUnitDeviceType.self)
        await add(DoorLockDeviceType.self)
        return summaries
    }

    static func summary<T: DeviceType>(of deviceType: T) -> GroupPartSummary {
        let traits = deviceType.traits
        let part = deviceType.part
        let summaries = [
            traits[Matter.OnOffTrait.self].map { summary($0, on: part, Matter.OnOffTrait.Command.self, $0.attributes) },
            traits[Matter.LevelControlTrait.self].map {
                summary($0, on: part, Matter.LevelControlTrait.Command.self, $0.attributes)
            },
            traits[Matter.ColorControlTrait.self].map {
                summary($0, on: part, Matter.ColorControlTrait.Command.self, $0.attributes)
            },
            traits[Matter.DoorLockTrait.self].map {
                summary($0, on: part, Matter.DoorLockTrait.Command.self, $0.attributes)
            },
            traits[Matter.IdentifyTrait.self].map {
                summary($0, on: part, Matter.IdentifyTrait.Command.self, $0.attributes)
            },
        ]
        return GroupPartSummary(
            deviceType: String(describing: T.self), deviceTypeID: T.matterDeviceTypeID,
            traits: summaries.compactMap { $0 })
    }

    /// The trait's accepted commands and its capability attributes (found by reflection on the trait's
    /// `Attributes`: every ``TraitAttribute`` not merged as dynamic state).
    private static func summary<T: Trait, C: TraitCommandCase>(
        _ trait: T, on part: DevicePart, _ commands: C.Type, _ attributes: Any
    ) -> GroupPartSummary.TraitSummary {
        let cluster = ClusterID(T.clusterID)
        let accepted = C.allCases.filter { part.supports(cluster, $0.id) }.map { String(describing: $0) }
        var capabilities: [(name: String, value: TLVValue?)] = []
        for child in Mirror(reflecting: attributes).children {
            guard let label = child.label, let attribute = child.value as? SummarizedAttribute,
                attribute.merge != .dynamic, attribute.isSupported
            else { continue }
            capabilities.append((String(label.drop { $0 == "_" }), attribute.mergedValue))
        }
        let name = String(describing: T.self)
        return GroupPartSummary.TraitSummary(
            name: name, clusterID: T.clusterID, commands: accepted, attributes: capabilities)
    }
}
