import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

/// The root-node clusters the device implements itself, with their metadata from the standard
/// schemas, and the dispatch of reads, writes and invokes to them.
extension RootNode {
    static let clusterIDs: [ClusterID] = [
        .accessControl, .generalCommissioning, .networkCommissioning, .generalDiagnostics,
        .administratorCommissioning, .operationalCredentials, .groupKeyManagement,
    ]

    /// Attributes each root cluster implements (beyond the global ones the server synthesizes).
    static let implementedAttributes: [ClusterID: [UInt32]] = [
        .accessControl: [0x0000, 0x0002, 0x0003, 0x0004],
        .generalCommissioning: [0x0000, 0x0001, 0x0002, 0x0003, 0x0004],
        .networkCommissioning: [0x0000, 0x0001, 0x0004, 0x0005, 0x0006, 0x0007],
        .generalDiagnostics: [0x0000, 0x0001, 0x0002, 0x0004, 0x0005, 0x0008],
        .administratorCommissioning: [0x0000, 0x0001, 0x0002],
        .operationalCredentials: [0x0000, 0x0001, 0x0002, 0x0003, 0x0004, 0x0005],
        .groupKeyManagement: [0x0000, 0x0001, 0x0002, 0x0003],
    ]

    static let featureMaps: [ClusterID: UInt32] = [.networkCommissioning: 0x0004, .administratorCommissioning: 0x0001]

    func attributes(cluster: ClusterID) -> [AttributeInfo] {
        guard let schema = ClusterRegistry.standard.cluster(cluster), let ids = Self.implementedAttributes[cluster]
        else { return [] }
        let own = ids.compactMap { id in schema.attribute(AttributeID(id)).map(AttributeInfo.init) }
        let globals = [0xFFFC, 0xFFFD].compactMap { schema.attribute(AttributeID($0)).map(AttributeInfo.init) }
        return own + globals
    }

    func acceptedCommands(cluster: ClusterID) -> [CommandInfo] {
        guard cluster != .networkCommissioning, let schema = ClusterRegistry.standard.cluster(cluster) else { return [] }
        return schema.commands.map(CommandInfo.init)
    }

    func generatedCommands(cluster: ClusterID) -> [CommandID] {
        guard cluster != .networkCommissioning, let schema = ClusterRegistry.standard.cluster(cluster) else { return [] }
        return schema.responses.map(\.id)
    }

    func read(_ path: ConcreteAttributePath, context: InteractionContext) throws(StatusIB) -> TLVValue {
        switch path.attribute.rawValue {
        case 0xFFFD:
            return .unsigned(UInt64(ClusterRegistry.standard.cluster(path.cluster)?.revision ?? 1))
        case 0xFFFC:
            return .unsigned(UInt64(Self.featureMaps[path.cluster] ?? 0))
        default: break
        }
        switch path.cluster {
        case .generalCommissioning: return try readGeneralCommissioning(path.attribute)
        case .operationalCredentials: return try readOperationalCredentials(path.attribute, context: context)
        case .administratorCommissioning: return try readAdministratorCommissioning(path.attribute)
        case .accessControl: return try readAccessControl(path.attribute, context: context)
        case .groupKeyManagement: return try readGroupKeyManagement(path.attribute, context: context)
        case .networkCommissioning: return try readNetworkCommissioning(path.attribute)
        case .generalDiagnostics: return try readGeneralDiagnostics(path.attribute)
        default: throw StatusIB(.unsupportedCluster)
        }
    }

    func write(_ path: ConcreteAttributePath, _ write: AttributeWrite, context: InteractionContext) throws(StatusIB) {
        switch (path.cluster, path.attribute.rawValue) {
        case (.generalCommissioning, 0x0000):
            guard case .replace(let value) = write, case .unsigned(let crumb) = value else { throw StatusIB(.invalidDataType) }
            breadcrumb = crumb
            changed(.generalCommissioning, path.attribute)
        case (.accessControl, 0x0000):
            try writeACL(write, context: context)
        case (.networkCommissioning, 0x0004):
            guard case .replace(.bool) = write else { throw StatusIB(.invalidDataType) }
        case (.groupKeyManagement, 0x0000):
            // Group key map: only empty maps are accepted (no group messaging yet).
            switch write {
            case .replace(.array(let items)) where items.isEmpty, .replace(.list(let items)) where items.isEmpty: break
            case .replace, .append: throw StatusIB(.resourceExhausted)
            }
        default:
            throw StatusIB(.unsupportedWrite)
        }
    }

    func invoke(_ path: ConcreteCommandPath, fields: TLVElement, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        switch path.cluster {
        case .generalCommissioning: return try invokeGeneralCommissioning(path.command, fields: fields, context: context)
        case .operationalCredentials: return try invokeOperationalCredentials(path.command, fields: fields, context: context)
        case .administratorCommissioning:
            return try invokeAdministratorCommissioning(path.command, fields: fields, context: context)
        case .groupKeyManagement: return try invokeGroupKeyManagement(path.command, fields: fields, context: context)
        case .generalDiagnostics: return try invokeGeneralDiagnostics(path.command, fields: fields)
        default: throw StatusIB(.unsupportedCommand)
        }
    }
}

/// Small helpers to build and read TLV values of cluster structures.
enum Field {
    static func structure(_ members: [(UInt8, TLVValue?)]) -> TLVValue {
        .structure(members.compactMap { tag, value in value.map { TLVElement(tag: .context(tag), $0) } })
    }

    static func uint<T: UnsignedInteger>(_ value: T) -> TLVValue { .unsigned(UInt64(value)) }

    static func required<T: TLVDecodable>(_ fields: TLVElement, _ tag: UInt8, as _: T.Type = T.self) throws(StatusIB) -> T {
        guard let member = fields[context: tag] else { throw StatusIB(.invalidCommand) }
        do {
            return try T(tlv: member)
        } catch {
            throw StatusIB(.invalidCommand)
        }
    }

    static func optional<T: TLVDecodable>(_ fields: TLVElement, _ tag: UInt8, as _: T.Type = T.self) throws(StatusIB) -> T? {
        guard let member = fields[context: tag] else { return nil }
        if case .null = member.value { return nil }
        do {
            return try T(tlv: member)
        } catch {
            throw StatusIB(.invalidCommand)
        }
    }

    /// A response command with `members`.
    static func response(_ command: CommandID, _ members: [(UInt8, TLVValue?)]) -> CommandResponse {
        CommandResponse(command: command, fields: structure(members))
    }
}
