import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV

/// What the root-node cluster servers share: their description from the standard schema (the
/// attributes they implement, every command of the schema, its responses), and no change-log lines
/// (the root node reports its own events: fabrics, windows; dumps of certificates and breadcrumbs
/// would only be noise). Subclasses implement `read`, `write` and `invoke` over the shared state
/// they are given.
class RootClusterServer: ClusterServer {
    let schema: ClusterSchema
    let logger = Logger(label: "device")
    private let implemented: [AttributeID]
    private let servesCommands: Bool

    /// A server of `schema`'s cluster implementing `attributes` (without the global ones).
    init(_ schema: ClusterSchema, attributes: [AttributeID], featureMap: UInt32 = 0, commands: Bool = true) {
        self.schema = schema
        implemented = attributes
        servesCommands = commands
        super.init(id: schema.id, revision: schema.revision, featureMap: featureMap)
    }

    override var attributes: [AttributeInfo] { Self.attributeInfos(schema, implemented) }

    override var acceptedCommands: [CommandInfo] { servesCommands ? schema.commands.map(CommandInfo.init) : [] }

    override var generatedCommands: [CommandID] { servesCommands ? schema.responses.map(\.id) : [] }

    override func changeDescription(of attribute: AttributeID, value: TLVValue) -> String? { nil }
}
